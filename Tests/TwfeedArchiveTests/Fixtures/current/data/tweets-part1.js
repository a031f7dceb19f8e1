window.YTD.tweets.part1 = [
  {
    "tweet" : {
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "user_mentions" : [ ],
        "urls" : [ { "url" : "https://t.co/QuOtE00001", "expanded_url" : "https://twitter.com/bob/status/1690000000000000009", "display_url" : "twitter.com/bob/status/169…", "indices" : [ "10", "33" ] } ] },
      "id_str" : "1710000000000000001",
      "id" : "1710000000000000001",
      "quoted_status_id_str" : "1690000000000000009",
      "created_at" : "Mon Oct 02 08:30:15 +0000 2023",
      "full_text" : "Worth it: https://t.co/QuOtE00001",
      "lang" : "en"
    }
  }
]
