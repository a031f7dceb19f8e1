extension AppDatabase {
    /// v15: photos on disk. One `photo` row per picture URL a stored post shows (a photo,
    /// or a video's or GIF's still): what the photo fetcher knows of it, and the cached
    /// file it names. Keyed by URL, so a picture shown by several posts is fetched once.
    ///
    /// - `lastUsedAt` is the last time a post showing it was stored (a page, a lookup):
    ///   the janitor evicts the least recently used files first, photos and avatars
    ///   alike, and an evicted photo is fetched again only once it is used after that.
    /// - A photo goes when no post shows it any more (the triggers on `media`: retention,
    ///   an edited post); its file then belongs to no row and the janitor deletes it.
    /// - The triggers of v10 count its file in `imageFile` and `imageCacheCount` with the
    ///   avatars', so `status`, pages and `/metrics` read the one cache's two numbers.
    /// - The partial indexes hold only what the fetcher asks about: the pictures it still
    ///   wants (not on disk, not refused, not evicted unless used since), the failed ones
    ///   waiting for a retry, the refused ones. An archive of a million posts whose photos
    ///   are mostly evicted costs the fetcher nothing per pass.
    /// - `media.file` (v14) is dropped: the file is the photo's, found through the URL.
    /// Frozen SQL: a shipped migration is never edited, so it repeats earlier tables on purpose (exempt from `duplicates`).
    static let photoSchema = """
        ALTER TABLE media DROP COLUMN file;
        CREATE INDEX media_imageURL ON media(imageURL) WHERE imageURL IS NOT NULL;
        CREATE TABLE photo (
            url TEXT PRIMARY KEY,
            file TEXT,
            bytes INTEGER NOT NULL DEFAULT 0,
            lastUsedAt DOUBLE NOT NULL,
            fetchedAt DOUBLE,
            evictedAt DOUBLE,
            rejectedReason TEXT,
            rejectedPolicy TEXT,
            failures INTEGER NOT NULL DEFAULT 0,
            retryAt DOUBLE,
            lastError TEXT
        ) WITHOUT ROWID;
        CREATE INDEX photo_file ON photo(file) WHERE file IS NOT NULL;
        CREATE INDEX photo_wanted ON photo(lastUsedAt)
            WHERE file IS NULL AND rejectedReason IS NULL AND (evictedAt IS NULL OR lastUsedAt > evictedAt);
        CREATE INDEX photo_retry ON photo(retryAt) WHERE file IS NULL AND retryAt IS NOT NULL;
        CREATE INDEX photo_rejected ON photo(rejectedPolicy) WHERE rejectedReason IS NOT NULL;
        INSERT OR IGNORE INTO photo (url, lastUsedAt) SELECT imageURL, 0 FROM media WHERE imageURL IS NOT NULL;

        CREATE TRIGGER media_removed AFTER DELETE ON media WHEN OLD.imageURL IS NOT NULL BEGIN
            DELETE FROM photo WHERE url = OLD.imageURL AND NOT EXISTS (SELECT 1 FROM media WHERE imageURL = OLD.imageURL);
        END;
        CREATE TRIGGER media_changed AFTER UPDATE OF imageURL ON media
            WHEN OLD.imageURL IS NOT NULL AND OLD.imageURL IS NOT NEW.imageURL BEGIN
            DELETE FROM photo WHERE url = OLD.imageURL AND NOT EXISTS (SELECT 1 FROM media WHERE imageURL = OLD.imageURL);
        END;

        CREATE TRIGGER photo_fileAdded AFTER INSERT ON photo WHEN NEW.file IS NOT NULL BEGIN
            INSERT INTO imageFile (file, bytes, users) VALUES (NEW.file, NEW.bytes, 1)
                ON CONFLICT(file) DO UPDATE SET users = users + 1, bytes = max(bytes, excluded.bytes);
        END;
        CREATE TRIGGER photo_fileRemoved AFTER DELETE ON photo WHEN OLD.file IS NOT NULL BEGIN
            UPDATE imageFile SET users = users - 1 WHERE file = OLD.file;
            DELETE FROM imageFile WHERE file = OLD.file AND users <= 0;
        END;
        CREATE TRIGGER photo_fileChanged AFTER UPDATE OF file, bytes ON photo
            WHEN OLD.file IS NOT NEW.file OR (NEW.file IS NOT NULL AND OLD.bytes IS NOT NEW.bytes) BEGIN
            UPDATE imageFile SET users = users - 1 WHERE file = OLD.file;
            DELETE FROM imageFile WHERE file = OLD.file AND users <= 0;
            INSERT INTO imageFile (file, bytes, users) SELECT NEW.file, NEW.bytes, 1 WHERE NEW.file IS NOT NULL
                ON CONFLICT(file) DO UPDATE SET users = users + 1, bytes = max(bytes, excluded.bytes);
        END;
        """
}
