/// What a request asks for, decided from its method and path alone.
enum Route: Equatable {
    case v2Me
    case v2Home(userID: String)
    case v2Mentions(userID: String)
    case v2RepostsOfMe
    case v2OwnPosts(userID: String)
    case v2Post
    /// `GET /2/tweets?ids=...`
    case v2Lookup
    /// `GET /2/tweets/:id`
    case v2Tweet(id: String)
    /// `GET /2/users?ids=...`
    case v2Users
    /// `DELETE /2/tweets/:id`
    case v2DeletePost(id: String)
    case v2MediaUpload
    case v2MediaMetadata
    case v11Home
    case v11Mentions
    case v11RetweetsOfMe
    case v11UserTimeline
    case v11VerifyCredentials
    case v11Update
    case v11Lookup
    case v11Show
    /// `POST /1.1/statuses/destroy/:id.json`
    case v11Destroy(id: String)
    case oauthRequestToken
    case oauthAuthorize
    case oauthAccessToken
    case profileImage(userID: UInt64, version: Int, size: ProfileImageSize)
    /// A photo or a video's or GIF's still (`EmulatedMedia.path`).
    case mediaImage(id: UInt64)
    case notFound(EmulatorDialect)

    init(method: String, path: String) {
        let get = method == "GET" || method == "HEAD"
        let post = method == "POST"
        let delete = method == "DELETE"
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        switch (parts.first, parts.count) {
        case ("2", _):
            switch parts.dropFirst().joined(separator: "/") {
            case "users/me" where get: self = .v2Me
            case "users/reposts_of_me" where get: self = .v2RepostsOfMe
            case "users" where get: self = .v2Users
            case "tweets" where post: self = .v2Post
            case "tweets" where get: self = .v2Lookup
            case "media/upload" where post: self = .v2MediaUpload
            case "media/metadata" where post: self = .v2MediaMetadata
            default:
                if get, parts.count == 3, parts[1] == "tweets" {
                    self = .v2Tweet(id: parts[2])
                } else if delete, parts.count == 3, parts[1] == "tweets" {
                    self = .v2DeletePost(id: parts[2])
                } else if get, parts.count == 5, parts[1] == "users", parts[3] == "timelines", parts[4] == "reverse_chronological" {
                    self = .v2Home(userID: parts[2])
                } else if get, parts.count == 4, parts[1] == "users", parts[3] == "mentions" {
                    self = .v2Mentions(userID: parts[2])
                } else if get, parts.count == 4, parts[1] == "users", parts[3] == "tweets" {
                    self = .v2OwnPosts(userID: parts[2])
                } else {
                    self = .notFound(.v2)
                }
            }
        case ("1.1", _):
            switch parts.dropFirst().joined(separator: "/") {
            case "statuses/home_timeline.json" where get: self = .v11Home
            case "statuses/mentions_timeline.json" where get: self = .v11Mentions
            case "statuses/retweets_of_me.json" where get: self = .v11RetweetsOfMe
            case "statuses/user_timeline.json" where get: self = .v11UserTimeline
            case "account/verify_credentials.json" where get: self = .v11VerifyCredentials
            case "statuses/update.json" where post: self = .v11Update
            case "statuses/lookup.json" where get: self = .v11Lookup
            case "statuses/show.json" where get: self = .v11Show
            default:
                if post, parts.count == 4, parts[1] == "statuses", parts[2] == "destroy", parts[3].hasSuffix(".json") {
                    self = .v11Destroy(id: String(parts[3].dropLast(5)))
                } else {
                    self = .notFound(.v1_1)
                }
            }
        case ("oauth", 2):
            switch parts[1] {
            case "request_token" where post: self = .oauthRequestToken
            case "authorize" where get, "authenticate" where get: self = .oauthAuthorize
            case "access_token" where post: self = .oauthAccessToken
            default: self = .notFound(.v1_1)
            }
        case ("profile_images", 3) where get:
            if let user = UInt64(parts[1]), let (version, size) = ProfileImageSize.parse(fileName: parts[2]) {
                self = .profileImage(userID: user, version: version, size: size)
            } else {
                self = .notFound(.v1_1)
            }
        case ("media", 2) where get, ("tweet_video_thumb", 2) where get, ("ext_tw_video_thumb", 5) where get:
            if let id = EmulatedMedia.id(inPath: parts) {
                self = .mediaImage(id: id)
            } else {
                self = .notFound(.v1_1)
            }
        default:
            self = .notFound(path.hasPrefix("/2/") ? .v2 : .v1_1)
        }
    }

    /// The error dialect of the answer (OAuth and unknown paths answer like v1.1).
    var dialect: EmulatorDialect {
        switch self {
        case .v2Me, .v2Home, .v2Mentions, .v2RepostsOfMe, .v2OwnPosts, .v2Post, .v2Lookup, .v2Tweet, .v2Users, .v2DeletePost,
            .v2MediaUpload, .v2MediaMetadata:
            .v2
        case .notFound(let dialect): dialect
        default: .v1_1
        }
    }

    /// The rate-limit bucket, for the signed API routes.
    var rateLimited: EmulatorEndpoint? {
        switch self {
        case .v2Me, .v11VerifyCredentials: .me
        case .v2Home, .v11Home: .home
        case .v2Mentions, .v11Mentions: .mentions
        case .v2RepostsOfMe, .v11RetweetsOfMe: .retweets
        case .v2OwnPosts, .v11UserTimeline: .ownPosts
        case .v2Post, .v11Update: .post
        case .v2Lookup, .v2Tweet, .v11Lookup, .v11Show: .lookup
        case .v2Users: .users
        case .v2DeletePost, .v11Destroy: .delete
        case .v2MediaUpload: .mediaUpload
        case .v2MediaMetadata: .mediaMetadata
        default: nil
        }
    }

    /// The name in request records and `/_emulator/stats`.
    var endpointName: String {
        if let endpoint = rateLimited { return endpoint.rawValue }
        switch self {
        case .oauthRequestToken, .oauthAuthorize, .oauthAccessToken: return "oauth"
        case .profileImage, .mediaImage: return "images"
        default: return "unknown"
        }
    }

    /// API requests (v2, v1.1 and OAuth routes) are what unscoped faults hit; images
    /// (profile pictures, media) and unknown paths are not.
    var isAPI: Bool {
        switch self {
        case .profileImage, .mediaImage, .notFound: false
        default: true
        }
    }
}
