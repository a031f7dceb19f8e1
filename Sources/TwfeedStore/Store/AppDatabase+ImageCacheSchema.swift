extension AppDatabase {
    /// Migration "v10: image cache counts": the image cache's file count and bytes, kept
    /// in the same transactions that name and clear cached files, so `status`, every
    /// reader page, `/healthz` and `/metrics` read two numbers instead of walking a cache
    /// folder of tens of thousands of files.
    ///
    /// Files are content-addressed, so authors with the same picture share one file:
    /// `imageFile` counts each file's users (the `profileImage` rows naming it), and the
    /// one row of `imageCacheCount` adds up the distinct files. Triggers keep both, so
    /// every writer (the fetcher, the janitor's evictions, retention's deletes) does.
    /// Frozen SQL: a shipped migration is never edited, so it repeats earlier tables on purpose (exempt from `duplicates`).
    static let imageCacheCounts = """
        CREATE TABLE imageFile (
            file TEXT PRIMARY KEY,
            bytes INTEGER NOT NULL,
            users INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE imageCacheCount (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            files INTEGER NOT NULL,
            bytes INTEGER NOT NULL
        );
        INSERT INTO imageFile (file, bytes, users)
            SELECT file, max(bytes), count(*) FROM profileImage WHERE file IS NOT NULL GROUP BY file;
        INSERT INTO imageCacheCount (id, files, bytes) SELECT 1, count(*), coalesce(sum(bytes), 0) FROM imageFile;

        CREATE TRIGGER imageFile_added AFTER INSERT ON imageFile BEGIN
            UPDATE imageCacheCount SET files = files + 1, bytes = bytes + NEW.bytes WHERE id = 1;
        END;
        CREATE TRIGGER imageFile_removed AFTER DELETE ON imageFile BEGIN
            UPDATE imageCacheCount SET files = files - 1, bytes = bytes - OLD.bytes WHERE id = 1;
        END;
        CREATE TRIGGER imageFile_resized AFTER UPDATE OF bytes ON imageFile BEGIN
            UPDATE imageCacheCount SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
        END;

        CREATE TRIGGER profileImage_fileAdded AFTER INSERT ON profileImage WHEN NEW.file IS NOT NULL BEGIN
            INSERT INTO imageFile (file, bytes, users) VALUES (NEW.file, NEW.bytes, 1)
                ON CONFLICT(file) DO UPDATE SET users = users + 1, bytes = max(bytes, excluded.bytes);
        END;
        CREATE TRIGGER profileImage_fileRemoved AFTER DELETE ON profileImage WHEN OLD.file IS NOT NULL BEGIN
            UPDATE imageFile SET users = users - 1 WHERE file = OLD.file;
            DELETE FROM imageFile WHERE file = OLD.file AND users <= 0;
        END;
        CREATE TRIGGER profileImage_fileChanged AFTER UPDATE OF file, bytes ON profileImage
            WHEN OLD.file IS NOT NEW.file OR (NEW.file IS NOT NULL AND OLD.bytes IS NOT NEW.bytes) BEGIN
            UPDATE imageFile SET users = users - 1 WHERE file = OLD.file;
            DELETE FROM imageFile WHERE file = OLD.file AND users <= 0;
            INSERT INTO imageFile (file, bytes, users) SELECT NEW.file, NEW.bytes, 1 WHERE NEW.file IS NOT NULL
                ON CONFLICT(file) DO UPDATE SET users = users + 1, bytes = max(bytes, excluded.bytes);
        END;
        """
}
