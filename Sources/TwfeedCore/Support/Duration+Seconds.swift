extension Duration {
    /// The duration as a floating-point number of seconds, for logs and reports.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
