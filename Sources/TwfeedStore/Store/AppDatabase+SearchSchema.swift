import GRDB
import Logging

extension AppDatabase {
    /// Migration "v5: full-text search": two FTS5 external-content tables, both with the
    /// `unicode61 remove_diacritics 2` tokenizer (case- and accent-insensitive: café
    /// finds cafe), kept in step by triggers, which SQLite runs inside the statement that
    /// changes the row and so in the same transaction (a rolled-back page leaves no
    /// index entry; a deleted tweet, whoever deletes it, leaves none either).
    ///
    /// - `tweetSearch(text, author)` over `tweetSearchSource`: the tweet's text, and its
    ///   author as one token `a<id>`. Not the author's username and name: those change
    ///   (display names often), and an external-content index can only delete a row with
    ///   the values it was indexed with, so a rename would have to re-index every tweet of
    ///   that author inside the poll that sees it. The id never changes.
    /// - `userSearch(username, name)` over `user`: a rename rewrites one row (the
    ///   trigger has the old values). A search term matches a tweet whose text holds it
    ///   or whose author's username or name does (`SearchMatch`), so a renamed author's
    ///   tweets are found by the new name at once and no longer by the old one.
    /// - `user_username`: `from:name` looks the author up case-insensitively by index.
    ///
    /// The tweet upsert sets every column on a re-fetch: the update triggers act only
    /// when the indexed values changed, so a re-fetch costs the index nothing.
    static let fullTextSearch = """
        CREATE VIEW tweetSearchSource AS SELECT id, text, 'a' || authorId AS author FROM tweet;
        CREATE VIRTUAL TABLE tweetSearch USING fts5(
            text, author, content='tweetSearchSource', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER tweetSearch_insert AFTER INSERT ON tweet BEGIN
            INSERT INTO tweetSearch (rowid, text, author) VALUES (NEW.id, NEW.text, 'a' || NEW.authorId);
        END;
        CREATE TRIGGER tweetSearch_delete AFTER DELETE ON tweet BEGIN
            INSERT INTO tweetSearch (tweetSearch, rowid, text, author) VALUES ('delete', OLD.id, OLD.text, 'a' || OLD.authorId);
        END;
        CREATE TRIGGER tweetSearch_update AFTER UPDATE OF text, authorId ON tweet
        WHEN NEW.text IS NOT OLD.text OR NEW.authorId IS NOT OLD.authorId BEGIN
            INSERT INTO tweetSearch (tweetSearch, rowid, text, author) VALUES ('delete', OLD.id, OLD.text, 'a' || OLD.authorId);
            INSERT INTO tweetSearch (rowid, text, author) VALUES (NEW.id, NEW.text, 'a' || NEW.authorId);
        END;

        CREATE VIRTUAL TABLE userSearch USING fts5(
            username, name, content='user', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER userSearch_insert AFTER INSERT ON user BEGIN
            INSERT INTO userSearch (rowid, username, name) VALUES (NEW.id, NEW.username, NEW.name);
        END;
        CREATE TRIGGER userSearch_delete AFTER DELETE ON user BEGIN
            INSERT INTO userSearch (userSearch, rowid, username, name) VALUES ('delete', OLD.id, OLD.username, OLD.name);
        END;
        CREATE TRIGGER userSearch_update AFTER UPDATE OF username, name ON user
        WHEN NEW.username IS NOT OLD.username OR NEW.name IS NOT OLD.name BEGIN
            INSERT INTO userSearch (userSearch, rowid, username, name) VALUES ('delete', OLD.id, OLD.username, OLD.name);
            INSERT INTO userSearch (rowid, username, name) VALUES (NEW.id, NEW.username, NEW.name);
        END;

        CREATE INDEX user_username ON user(username COLLATE NOCASE);
        """

    /// Rows the index migration adds per step; it logs after each.
    static let searchIndexBatch = 50_000

    /// The Swift half of "v5: full-text search": indexes the tweets and users an
    /// existing database holds, in id order and in batches, logging `search.index` after
    /// each (a million tweets take a while; the log says how far it got). Runs inside
    /// the migration's transaction, so a killed daemon leaves no half-built index: the
    /// next start does it all again.
    static func indexForSearch(_ db: Database, logger: Logger) throws {
        for (table, insert) in [
            ("user", "INSERT INTO userSearch (rowid, username, name) SELECT id, username, name FROM user"),
            ("tweet", "INSERT INTO tweetSearch (rowid, text, author) SELECT id, text, author FROM tweetSearchSource"),
        ] {
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            var done = 0
            var last = Int64.min
            while let batch = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) AS rows, max(id) AS upper FROM (SELECT id FROM \(table) WHERE id > ? ORDER BY id LIMIT ?)
                    """,
                arguments: [last, searchIndexBatch]
            ), let upper = batch["upper"] as Int64? {
                try db.execute(sql: "\(insert) WHERE id > ? AND id <= ?", arguments: [last, upper])
                done += batch["rows"] as Int
                last = upper
                logger.info("search.index", metadata: ["table": "\(table)", "done": "\(done)", "total": "\(total)"])
            }
        }
    }
}
