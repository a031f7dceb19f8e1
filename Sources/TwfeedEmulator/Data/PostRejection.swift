/// Why a status was refused.
enum PostRejection: Error, Equatable {
    case empty
    case tooLong
    case duplicate
    case replyTargetMissing
    /// A reply to a post whose author did not mention or quote the account, while
    /// replies must be summoned (`Emulator.setRepliesRequireSummons(_:)`).
    case replyNotPermitted
}
