import Foundation

/// `POST statuses/destroy/:id.json`.
extension V11Routes {
    /// One of the account's statuses: 200 with the status as it was, and it leaves every
    /// timeline and lookup; another user's: 403 code 183; unknown or already deleted: 404
    /// code 144, as v1.1 documented. Billed as a deletion (`postDelete`).
    static func destroy(_ id: String, context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        guard V2Routes.isID(id), let number = UInt64(id) else {
            return ErrorBody.v11(404, code: 144, message: "No status found with that ID.")
        }
        switch state.delete(post: number, dialect: .v1_1, now: context.now) {
        case .deleted(let tweet):
            // The answer holds the deleted status, but the request is billed as one deletion.
            var ignored = ServedResources()
            let status = PayloadV11.status(
                tweet,
                store: state.store,
                options: PayloadV11.Options(context.parameters),
                imageBase: context.imageBase,
                served: &ignored
            )
            var response = EmulatorResponse.json(200, status)
            response.served.performed = .postDelete
            return response
        case .notYours:
            return ErrorBody.v11(403, code: 183, message: "You may not delete another user's status.")
        case .gone:
            return ErrorBody.v11(404, code: 144, message: "No status found with that ID.")
        }
    }
}
