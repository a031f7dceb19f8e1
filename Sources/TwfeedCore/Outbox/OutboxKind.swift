/// What a queued status asks of the API: a post (text, photos, a reply) or the deletion
/// of one of the account's posts. Both go through the same queue, so a deletion queued
/// after a post never overtakes it, and each is sent exactly once.
package enum OutboxKind: String, Sendable, CaseIterable, Codable {
    case post, delete
}
