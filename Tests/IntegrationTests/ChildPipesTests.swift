import Foundation
import Testing

/// The pipes the suite runs commands with (`ChildPipes`). With Foundation's `Pipe`, a
/// child that another test started at the same moment inherited a command's write end,
/// and the test reading that command's output waited for the other child to end: the
/// suite once hung so, both threads of the cooperative pool blocked.
@Suite(.tags(.integration))
struct ChildPipesTests {
    @Test func bothEndsAreCloseOnExecSoNoOtherChildInheritsThem() throws {
        let (reading, writing) = try ChildPipes.pair()
        for handle in [reading, writing] {
            #expect(fcntl(handle.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0)
        }
        // What Foundation's own pipe would have been: the case this guards against.
        let foundation = Pipe()
        #expect(fcntl(foundation.fileHandleForWriting.fileDescriptor, F_GETFD) & FD_CLOEXEC == 0)
    }

    @Test func aCommandsOutputAndErrorsAreReadWholeWhenItExits() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "read line; echo \"got $line\"; echo oops >&2; exit 3"]
        let pipes = try ChildPipes.run(process, input: true)
        pipes.input?.write(Data("hello\n".utf8))
        try pipes.input?.close()
        #expect(String(decoding: pipes.output.readDataToEndOfFile(), as: UTF8.self) == "got hello\n")
        #expect(String(decoding: pipes.error?.readDataToEndOfFile() ?? Data(), as: UTF8.self) == "oops\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
    }
}
