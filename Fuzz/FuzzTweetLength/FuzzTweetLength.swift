import FuzzDriver
import TwitterText

/// twitter-text's weighted length on arbitrary UTF-8 (invalid sequences become U+FFFD,
/// as they do when `twfeed post` reads its argument). Besides not trapping, the result
/// must describe the text it was given.
@main
enum FuzzTweetLength: FuzzTarget {
    static func fuzz(_ input: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: input, as: UTF8.self)
        let length = TweetLengthCounter.measure(text)
        precondition(length.weightedLength >= 0, "negative weighted length")
        precondition(length.displayRangeEnd <= max(0, text.utf16.count - 1), "display range past the end")
        precondition(!length.isPostable || length.weightedLength <= length.maxWeightedLength, "postable past the limit")
    }
}
