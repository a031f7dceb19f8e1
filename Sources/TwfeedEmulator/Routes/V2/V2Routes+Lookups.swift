import Foundation
import TwfeedBase

/// The lookups by id: `GET /2/tweets` and `GET /2/users`.
extension V2Routes {
    /// `GET /2/tweets?ids=ID,...` (1-100 ids) and `GET /2/tweets/:id`: the posts found,
    /// in the order asked, with the usual fields and expansions; a missing or deleted one
    /// is a partial `errors` entry, and when none is found the answer is a 200 with only
    /// `errors`, as on the real API. The users in `leavingOut` are left out of
    /// `includes.users` (`Emulator.leaveUserOutOfLookups`).
    static func lookup(_ context: RequestContext, pathID: String?, store: TweetStore, leavingOut: Set<UInt64> = []) -> EmulatorResponse {
        let query = context.request.queryItems
        var errors = unknownParameterErrors(query, allowed: pathID == nil ? fieldParameters.union(["ids"]) : fieldParameters)
        let fields = V2Fields(query: query, errors: &errors)
        let parameter = pathID == nil ? "ids" : "id"
        let texts =
            pathID.map { [$0] }
            ?? (query.first { $0.name == "ids" }?.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? [])
        var ids: [UInt64] = []
        if let error = idsCountError(texts) { errors.append(error) }
        for text in texts {
            if let id = UInt64(text), text.count <= 19 {
                ids.append(id)
            } else {
                errors.append(
                    .init(
                        parameter: parameter,
                        value: text,
                        message: "The `\(parameter)` query parameter value [\(text)] does not match ^[0-9]{1,19}$"
                    )
                )
            }
        }
        guard errors.isEmpty else { return ErrorBody.invalidRequest(errors) }
        var found: [StoredTweet] = []
        var missing: [EmulatorJSON] = []
        for id in ids {
            if let tweet = store.tweets[id], !tweet.deleted {
                found.append(tweet)
            } else {
                missing.append(PayloadV2.unavailableError(id, parameter: parameter, store: store))
            }
        }
        var served = ServedResources()
        let members = PayloadV2.body(
            found,
            single: pathID != nil,
            errors: missing,
            fields: fields,
            leavingOut: leavingOut,
            store: store,
            imageBase: context.imageBase,
            served: &served
        )
        var response = EmulatorResponse.json(200, .object(members))
        response.served = served
        return response
    }

    // MARK: GET /2/users?ids=

    /// `GET /2/users?ids=ID,...` (1-100 ids): the users found, in the order asked, with the
    /// `user.fields` asked; an unknown id is a partial `errors` entry, and when none is
    /// found the answer is a 200 with only `errors`. Each user returned is billed at the
    /// user read price (x-api.md), once per UTC day.
    static func users(_ context: RequestContext, store: TweetStore) -> EmulatorResponse {
        let query = context.request.queryItems
        var errors = unknownParameterErrors(query, allowed: fieldParameters.union(["ids"]))
        let fields = V2Fields(query: query, errors: &errors)
        let texts = query.first { $0.name == "ids" }?.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
        if let error = idsCountError(texts) { errors.append(error) }
        var ids: [UInt64] = []
        for text in texts {
            if let id = UInt64(text), text.count <= 19 {
                ids.append(id)
            } else {
                errors.append(
                    .init(parameter: "ids", value: text, message: "The `ids` query parameter value [\(text)] does not match ^[0-9]{1,19}$")
                )
            }
        }
        guard errors.isEmpty else { return ErrorBody.invalidRequest(errors) }
        var served = ServedResources()
        var found: [EmulatedUser] = []
        var seen: Set<UInt64> = []
        var missing: [EmulatorJSON] = []
        for id in ids where seen.insert(id).inserted {
            if let user = store.user(id) {
                found.append(user)
                served.addUser(id)
            } else {
                missing.append(
                    .object([
                        ("value", .string(String(id))), ("detail", .string("Could not find user with ids: [\(id)].")),
                        ("title", .string("Not Found Error")), ("resource_type", .string("user")), ("parameter", .string("ids")),
                        ("resource_id", .string(String(id))), ("type", .string("https://api.twitter.com/2/problems/resource-not-found")),
                    ])
                )
            }
        }
        var members: [(String, EmulatorJSON)] = []
        if !found.isEmpty {
            members.append(("data", .array(found.map { PayloadV2.user($0, fields: fields.userFields, imageBase: context.imageBase) })))
        }
        if !missing.isEmpty { members.append(("errors", .array(missing))) }
        var response = EmulatorResponse.json(200, .object(members))
        response.served = served
        return response
    }

    /// Both lookups take 1 to 100 ids, and say so in the same words.
    static func idsCountError(_ texts: [String]) -> ErrorBody.ParameterError? {
        guard texts.isEmpty || texts.count > 100 else { return nil }
        let value = texts.joined(separator: ",")
        return .init(parameter: "ids", value: value, message: "The `ids` query parameter value [\(value)] must have 1 to 100 ids")
    }
}
