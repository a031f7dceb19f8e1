/// Reading or posting: the one distinction the billing states make between requests.
/// A usage cap stops reads and lets posts through; running out of credits or hitting the
/// spend cap stops both.
package enum BillableAction: String, Sendable, Hashable, CaseIterable {
    case read
    case post
}
