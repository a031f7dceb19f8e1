import Foundation

/// An account of the emulated network.
struct EmulatedUser: Sendable {
    let id: UInt64
    let username: String
    /// The display name; the user may change it (`Emulator.renameUser`).
    var name: String
    let description: String
    let location: String
    let createdAt: Date
    let followersCount: Int
    let followingCount: Int
    /// The `<n>` of `/profile_images/<id>/<n>_normal.png`: a new picture gets a new number,
    /// hence a new URL, as on the real service.
    var imageVersion: Int
    /// Followed accounts' tweets reach the account user's home feed.
    let followed: Bool
}
