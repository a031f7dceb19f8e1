import Foundation

/// `DELETE /2/tweets/:id`.
extension V2Routes {
    /// One of the account's posts: 200 `{"data":{"deleted":true}}` and it leaves every
    /// timeline and lookup; another user's: 403. An unknown or already deleted one
    /// answers as `EmulatorGoneDeletion` says: by default 200 `{"data":{"deleted":false}}`,
    /// the literal reading of the docs ("whether the specified Tweet has been deleted as a
    /// result of this request"); else a 404 problem. Only a deletion is billed
    /// (`postDelete`).
    static func deletePost(_ id: String, context: RequestContext, state: inout EmulatorState) -> EmulatorResponse {
        guard isID(id), let number = UInt64(id) else {
            return ErrorBody.invalidRequest([
                .init(parameter: "id", value: id, message: "The `id` query parameter value [\(id)] does not match ^[0-9]{1,19}$")
            ])
        }
        switch state.delete(post: number, dialect: .v2, now: context.now) {
        case .deleted:
            var response = deleted(true)
            response.served.performed = .postDelete
            return response
        case .notYours:
            return ErrorBody.problem(403, title: "Forbidden", detail: "You are not allowed to delete a Tweet you did not author.")
        case .gone:
            switch state.goneDeletion {
            case .notDeleted:
                return deleted(false)
            case .notFound:
                return ErrorBody.problem(
                    404,
                    title: "Not Found Error",
                    detail: "Could not find tweet with id: [\(id)].",
                    type: "https://api.twitter.com/2/problems/resource-not-found"
                )
            }
        }
    }

    private static func deleted(_ value: Bool) -> EmulatorResponse {
        .json(200, .object([("data", .object([("deleted", .bool(value))]))]))
    }
}
