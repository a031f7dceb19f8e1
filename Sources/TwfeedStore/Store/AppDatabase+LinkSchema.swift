extension AppDatabase {
    /// v18: a post's links, stored at ingest next to its `media` (the client reads them
    /// from the answer, `Tweet.links`), so a page reads rows instead of parsing every
    /// shown post's stored JSON. A row goes with its tweet (ON DELETE CASCADE).
    ///
    /// The posts stored before this migration get theirs here, from their stored answer,
    /// with SQLite's JSON functions: in the migration, not at the daemon's start, so every
    /// database that has the table has every row's links (a reader, `serve` or `feed`,
    /// never sees it half filled, and no start-up step has to remember whether it ran),
    /// and the one place the store reads the API's spelling (`url`, `expanded_url`,
    /// `display_url`, at any depth, the first of each `url`) is frozen SQL that runs once.
    /// Only answers that hold `"expanded_url"` are walked; one not valid JSON is skipped.
    static let linkSchema = """
        CREATE TABLE link (
            tweetId INTEGER NOT NULL REFERENCES tweet(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            url TEXT NOT NULL,
            expandedURL TEXT NOT NULL,
            displayURL TEXT,
            PRIMARY KEY (tweetId, position)
        ) WITHOUT ROWID;
        INSERT INTO link (tweetId, position, url, expandedURL, displayURL)
        SELECT tweetId, row_number() OVER (PARTITION BY tweetId ORDER BY node) - 1, url, expanded, display
        FROM (
            SELECT t.id AS tweetId, min(j.id) AS node, json_extract(j.value, '$.url') AS url,
                json_extract(j.value, '$.expanded_url') AS expanded, json_extract(j.value, '$.display_url') AS display
            FROM tweet t, json_tree(CASE WHEN json_valid(t.raw) THEN t.raw ELSE '{}' END) j
            WHERE instr(t.raw, '"expanded_url"') > 0 AND j.type = 'object'
                AND json_type(j.value, '$.url') = 'text' AND json_type(j.value, '$.expanded_url') = 'text'
            GROUP BY t.id, url
        );
        """
}
