import Foundation
import Glibc
import TwfeedArchive

/// `twfeed-bench --archive-import [--posts N] [--runs N] [--cache DIR]`: issue 28's target end
/// to end. Writes once (kept in `DIR/archive-import/`, default `.bench-cache`) an archive as X sends it — N posts (default 100,000) in two
/// parts of `tweets.js` at about 1.4 KB a post, one in 50 a long post with its note, 500
/// photos, N/5 likes, zipped — then runs the real `twfeed import ZIP --json` into a fresh
/// database and again over it ("unchanged"), and checks that `twfeed search` finds a word
/// only a long post's note holds. Prints wall, CPU (user+sys) and the child's peak RSS
/// against the largest data file, PASS/FAIL on ≤ 5 s and ≤ 3x, and the load average.
enum ArchiveImportBench {
    static func run(arguments: [String], folder: String) throws -> Bool {
        let count = arguments.firstIndex(of: "--posts").flatMap { Int(arguments[$0 + 1]) } ?? 100_000
        let runs = arguments.firstIndex(of: "--runs").flatMap { Int(arguments[$0 + 1]) } ?? 1
        let cache = arguments.firstIndex(of: "--cache").map { arguments[$0 + 1] } ?? ".bench-cache"
        let twfeed = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("twfeed")
            .path
        try FileManager.default.createDirectory(atPath: "\(cache)/archive-import", withIntermediateDirectories: true)
        let zip = "\(cache)/archive-import/archive-\(count).zip"
        let largestFile = "\(zip).largest"
        if !FileManager.default.fileExists(atPath: zip) { try write(count: count, zip: zip, largestFile: largestFile) }
        let largest = Double((try? String(contentsOfFile: largestFile, encoding: .utf8)).flatMap { Int($0) } ?? 0)
        let zipBytes = Double((try? FileManager.default.attributesOfItem(atPath: zip)[.size] as? Int) ?? 0)
        let loadBefore = loadAverage()
        let mb = 1_000_000.0
        print(
            "| twfeed import, \(count) posts (zip \(String(format: "%.0f", zipBytes / mb)) MB), release | wall | CPU user+sys | peak RSS | largest data file | peak / largest | again (unchanged) | search finds a long post | ≤ 5 s | ≤ 3x |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        var passed = true
        for run in 1...max(1, runs) {
            let database = "\(folder)/run"
            try? FileManager.default.removeItem(atPath: database)
            try FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: true)
            let (config, _) = try ReaderConfig.write(folder: database)
            let first = try measure(twfeed, ["import", zip, "--json", "--config", config])
            guard first.status == 0, let stored = counts(first.output), stored.postsNew == count else {
                throw BenchError("twfeed import exited \(first.status) without storing \(count) new posts: \(first.output)")
            }
            let again = try measure(twfeed, ["import", zip, "--json", "--config", config])
            guard again.status == 0 else { throw BenchError("the second twfeed import exited \(again.status)") }
            let unchanged = counts(again.output).map { $0.changed == 0 } ?? false
            let search = try measure(twfeed, ["search", word(of: 0), "--feed", "posts", "--config", config])
            let found = search.status == 0 && search.output.contains(id(of: 0))
            let ratio = first.peak / max(largest, 1)
            let fast = first.wall <= 5
            let small = ratio <= 3
            passed = passed && fast && small && found
            print(
                String(
                    format: "| run %d | %.2f s | %.2f s | %.0f MB | %.0f MB | %.2fx | %.2f s%@ | %@ | %@ | %@ |",
                    run,
                    first.wall,
                    first.cpu,
                    first.peak / mb,
                    largest / mb,
                    ratio,
                    again.wall,
                    unchanged ? "" : " (CHANGED)",
                    found ? "yes" : "NO",
                    fast ? "PASS" : "FAIL",
                    small ? "PASS" : "FAIL"
                )
            )
        }
        print("\nload average (1 min) at start \(loadBefore), at end \(loadAverage()); \(ProcessInfo.processInfo.activeProcessorCount) cores")
        return passed
    }

    /// The archive: `ArchiveParse`'s posts, each long post ending in a word of its own
    /// (only its note holds it), written as a folder, each post padded to a real archive's
    /// size (a reply's `user_mentions`, a hashtag, the reply fields X writes), zipped.
    static func write(count: Int, zip: String, largestFile: String) throws {
        var writer = ArchiveParse.synthetic(posts: count)
        for index in writer.posts.indices where index % 50 == 0 { writer.posts[index].text += " " + word(of: index) }
        let staging = zip + ".folder"
        try? FileManager.default.removeItem(atPath: staging)
        try writer.write(to: staging, as: .folder)
        var largest = 0
        let data = "\(staging)/data"
        for name in try FileManager.default.contentsOfDirectory(atPath: data) where name.hasSuffix(".js") {
            let path = "\(data)/\(name)"
            if name.hasPrefix("tweets") {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let padded = text.replacing("\"favorited\" : false", with: replyFields)
                    .replacing("\"user_mentions\" : [ ]", with: mention).replacing("\"hashtags\" : [ ]", with: hashtag)
                try Data(padded.utf8).write(to: URL(fileURLWithPath: path))
            }
            largest = max(largest, (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        process.currentDirectoryURL = URL(fileURLWithPath: staging)
        process.arguments = ["-q", "-r", "-X", URL(fileURLWithPath: zip).path, "."]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("zip exited \(process.terminationStatus)") }
        try FileManager.default.removeItem(atPath: staging)
        try Data(String(largest).utf8).write(to: URL(fileURLWithPath: largestFile))
    }

    /// What a real post carries beyond the writer's fields (about 430 bytes in all): the
    /// reply fields X writes, a mention and a hashtag in its entities.
    static let replyFields = """
        "favorited" : false,
              "possibly_sensitive" : false,
              "in_reply_to_screen_name" : "friend_of_the_bench",
              "in_reply_to_user_id" : "1234567890123456789",
              "in_reply_to_user_id_str" : "1234567890123456789"
        """
    static let mention = """
        "user_mentions" : [ {
                  "name" : "A friend of the bench",
                  "screen_name" : "friend_of_the_bench",
                  "indices" : [ "0", "20" ],
                  "id_str" : "1234567890123456789",
                  "id" : "1234567890123456789"
                } ]
        """
    static let hashtag = """
        "hashtags" : [ {
                  "text" : "towpath",
                  "indices" : [ "21", "29" ]
                } ]
        """

    /// From `--json`: the posts stored new, and how many posts, likes and photos changed.
    static func counts(_ json: String) -> (postsNew: Int, changed: Int)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let posts = object["posts"] as? [String: Any], let likes = object["likes"] as? [String: Any]
        else { return nil }
        func number(_ value: Any?) -> Int { (value as? NSNumber)?.intValue ?? 0 }
        let changed =
            number(posts["new"]) + number(posts["updated"]) + number(likes["new"]) + number(likes["updated"]) + number(object["photos"])
        return (number(posts["new"]), changed)
    }

    static func word(of index: Int) -> String { "zanzibar\(String(index, radix: 36))" }
    static func id(of index: Int) -> String { String(Int64(900_000_000_000_000_000) + Int64(index) * 4_194_304_000) }

    struct Measured {
        var wall: Double
        var cpu: Double
        var peak: Double
        var status: Int32
        var output: String
    }

    /// One child: wall from spawn to exit, its CPU from wait4, its VmHWM sampled every
    /// 5 ms from /proc while it runs (a spawned child's ru_maxrss counts its parent's pages).
    static func measure(_ binary: String, _ arguments: [String]) throws -> Measured {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("twfeed-bench-import-\(getpid()).out").path
        defer { unlink(out) }
        let started = DispatchTime.now()
        let pid = try ProcessTimer.spawn(binary, arguments, stdout: out)
        var peak = 0
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0, errno != EINTR { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
            peak = max(peak, highWater(pid))
            usleep(5_000)
        }
        let wall = Bench.elapsed(since: started)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return Measured(wall: wall, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime), peak: Double(peak), status: exit, output: output)
    }

    static func highWater(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
    }
}
