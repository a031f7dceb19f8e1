extension Duration {
    /// The duration as a floating-point number of seconds, for logs and reports.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
