import Testing
@testable import TwfeedCore

struct JSONValueTests {
    @Test func bigNumbersKeepTheirText() throws {
        let value = try JSONValue.parse(#"{"id": 1850000000000000123, "id_str": "1850000000000000123"}"#)
        #expect(value["id"]?.idText == "1850000000000000123")
        #expect(value["id_str"]?.string == "1850000000000000123")
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let value = try JSONValue.parse(#"["a\"b\\c\n", "\u00e9\ud83d\ude00", "/\/"]"#)
        #expect(value.array == [.string("a\"b\\c\n"), .string("é😀"), .string("//")])
    }

    @Test func serializationRoundTrips() throws {
        let text = #"{"a":[1,2.5,true,null,"x\ny"],"b":{"c":"é"}}"#
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.serialized) == value)
        #expect(value.serialized == text)
    }

    @Test(arguments: [
        ("{\"a\": tru}", 1, 7),
        ("[1,\n 2,,]", 2, 4),
        ("\"open", 1, 6),
        ("{\"a\" 1}", 1, 6),
    ])
    func syntaxErrorsGiveLineAndColumn(text: String, line: Int, column: Int) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch let error as JSONValue.ParseError {
            #expect(error.line == line)
            #expect(error.column == column)
        } catch {}
    }
}
