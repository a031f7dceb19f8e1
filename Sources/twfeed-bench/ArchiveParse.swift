import Foundation
import Glibc
import TwfeedArchive
import TwfeedCore

/// `twfeed-bench --archive-parse [--posts N]`: writes an archive as X does (N posts,
/// default 100,000, in two parts of `tweets.js`, 2% long posts with notes, 500 photos,
/// 20,000 likes), zipped, then reads it whole in a child process (`check()` then every
/// post and like, as `twfeed import` does) and prints its time, MB/s of `tweets*.js` and
/// peak RSS against the largest data file: the archive reader's share of issue 28's 5 s.
enum ArchiveParse {
    static func run(arguments: [String], folder: String) async throws {
        let count = arguments.firstIndex(of: "--posts").flatMap { Int(arguments[$0 + 1]) } ?? 100_000
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // `--out PATH` keeps the archive (to profile the child on it: `--archive-parse-child PATH`).
        let path = arguments.firstIndex(of: "--out").map { arguments[$0 + 1] } ?? "\(folder)/archive.zip"
        let writer = synthetic(posts: count)
        try writer.write(to: path, as: .zip)
        let files = writer.files()
        let postBytes = files.filter { $0.0.hasPrefix("data/tweets") && $0.0.hasSuffix(".js") }.reduce(0) { $0 + $1.1.count }
        let largest = files.filter { $0.0.hasSuffix(".js") }.map(\.1.count).max() ?? 0
        let zipBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

        let started = DispatchTime.now()
        let (status, output) = try spawnSelf(["--archive-parse-child", path])
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        guard status == 0 else { throw BenchError("the child reading the archive failed (\(status))") }
        // The child's own high-water mark (a fork's ru_maxrss would count this process's
        // pages), then its milliseconds of check, posts and likes.
        let figures = (output.split(separator: "\n").last ?? "").split(separator: " ").compactMap { Double($0) }
        guard figures.count == 4 else { throw BenchError("the child printed no figures: \(output)") }
        let peak = figures[0]
        let (check, postsPass, likesPass) = (figures[1] / 1000, figures[2] / 1000, figures[3] / 1000)
        let mb = 1_000_000.0
        print(
            "| archive of \(count) posts (\(String(format: "%.0f", Double(postBytes) / mb)) MB of tweets*.js, zip \(String(format: "%.0f", Double(zipBytes) / mb)) MB), release "
                + "| child in all | check() | posts() | likes() | posts() MB/s | peak RSS | largest data file | peak / largest |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        print(
            String(
                format: "| open, check, read posts and likes | %.2f s | %.2f s | %.2f s | %.2f s | %.0f | %.0f MB | %.0f MB | %.2fx |",
                seconds,
                check,
                postsPass,
                likesPass,
                Double(postBytes) / mb / postsPass,
                peak / mb,
                Double(largest) / mb,
                peak / Double(max(largest, 1))
            )
        )
    }

    /// The child: opens, checks and reads everything, keeping nothing.
    static func child(path: String) async throws {
        let clock = ContinuousClock()
        var marks = [clock.now]
        let archive = try ArchiveOpener.open(path: path)
        try await archive.check()
        marks.append(clock.now)
        var posts = 0
        var likes = 0
        try await archive.posts(batchSize: 1_000) { posts += $0.count }
        marks.append(clock.now)
        try await archive.likes(batchSize: 1_000) { likes += $0.count }
        marks.append(clock.now)
        let steps = zip(marks, marks.dropFirst()).map { String(format: "%.2f", ($1 - $0) / .seconds(1)) }
        let milliseconds = zip(marks, marks.dropFirst()).map { Int(($1 - $0) / .milliseconds(1)) }
        print(([peakBytes()] + milliseconds).map(String.init).joined(separator: " "))
        FileHandle.standardError.write(
            Data(
                "archive: \(posts) posts, \(likes) likes, \(archive.photos.count) photos; seconds: check \(steps[0]), posts \(steps[1]), likes \(steps[2])\n"
                    .utf8
            )
        )
    }

    /// VmHWM, the peak resident memory of this process since it started (its own, not a parent's).
    static func peakBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    private static func spawnSelf(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Posts shaped like a real account's: ~200 characters, a link in one of three, a
    /// reply in one of four, a photo in one of 200, a long post in one of 50.
    static func synthetic(posts count: Int) -> ArchiveWriter {
        let account = ArchiveAccount(id: UserID(1_000_000_001), username: "bench_user", displayName: "Bench User")
        let start = Date(timeIntervalSince1970: 1_500_000_000)
        let words = ["river", "weir", "heron", "lock", "mill", "towpath", "bridge", "kingfisher", "&", "<3", "café", "🐟"]
        var posts: [ArchiveWriter.Post] = []
        posts.reserveCapacity(count)
        for index in 0..<count {
            let id = TweetID(Int64(900_000_000_000_000_000) + Int64(index) * 4_194_304_000)
            let length = index % 50 == 0 ? 90 : 30
            var text = (0..<length).map { words[($0 * 7 + index) % words.count] }.joined(separator: " ")
            var links: [TweetLink] = []
            if index % 3 == 0 {
                let url = "https://t.co/b\(String(index, radix: 36))"
                text += " " + url
                links.append(TweetLink(url: url, expandedURL: "https://example.org/post/\(index)", displayURL: "example.org/post/\(index)"))
            }
            let reply = index % 4 == 1 ? TweetID(Int64(800_000_000_000_000_000) + Int64(index)) : nil
            if reply != nil { text = "@friend_\(index % 97) " + text }
            let photos =
                index % 200 == 7
                ? [
                    ArchiveWriter.Photo(
                        mediaID: String(id.rawValue + 1),
                        name: "P\(index).jpg",
                        bytes: Data(repeating: UInt8(index % 251), count: 2_000)
                    )
                ]
                : []
            posts.append(
                ArchiveWriter.Post(
                    id: id,
                    createdAt: start.addingTimeInterval(Double(index) * 1_000),
                    text: text,
                    inReplyToID: reply,
                    links: links,
                    photos: photos
                )
            )
        }
        var writer = ArchiveWriter(
            account: account,
            posts: posts,
            likes: (0..<(count / 5)).map {
                ArchivedLike(id: TweetID(Int64(700_000_000_000_000_000) + Int64($0)), text: "liked post \($0) &", expandedURL: nil)
            }
        )
        writer.postsPerPart = (count + 1) / 2
        return writer
    }
}
