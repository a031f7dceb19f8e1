window.YTD.tweet.part0 = [ {
  "retweeted" : false,
  "source" : "<a href=\"http://twitter.com\" rel=\"nofollow\">Twitter Web Client</a>",
  "entities" : {
    "hashtags" : [ ],
    "symbols" : [ ],
    "user_mentions" : [ ],
    "urls" : [ ]
  },
  "display_text_range" : [ "0", "20" ],
  "favorite_count" : "0",
  "id_str" : "1120000000000000001",
  "truncated" : false,
  "retweet_count" : "0",
  "id" : "1120000000000000001",
  "created_at" : "Sun Apr 21 20:19:24 +0000 2019",
  "favorited" : false,
  "full_text" : "Spring &amp; [brackets] {braces} \"quotes\"",
  "lang" : "en"
}, {
  "retweeted" : false,
  "entities" : {
    "hashtags" : [ ],
    "symbols" : [ ],
    "user_mentions" : [ {
      "name" : "Bob",
      "screen_name" : "bob",
      "indices" : [ "0", "4" ],
      "id_str" : "2000000002",
      "id" : "2000000002"
    } ],
    "urls" : [ ]
  },
  "in_reply_to_status_id_str" : "1110000000000000001",
  "id_str" : "1120000000000000002",
  "in_reply_to_user_id" : "2000000002",
  "in_reply_to_status_id" : "1110000000000000001",
  "created_at" : "Mon Apr 22 06:00:00 +0000 2019",
  "full_text" : "@bob quite right",
  "id" : "1120000000000000002",
  "in_reply_to_screen_name" : "bob",
  "in_reply_to_user_id_str" : "2000000002",
  "lang" : "en"
} ]
