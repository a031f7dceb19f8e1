window.YTD.tweet.part1 = [ {
  "retweeted" : false,
  "entities" : { "hashtags" : [ ], "symbols" : [ ], "user_mentions" : [ ], "urls" : [ ] },
  "id_str" : "1120000000000000003",
  "id" : "1120000000000000003",
  "created_at" : "Tue Apr 23 06:00:00 +0000 2019",
  "full_text" : "Part one of the split file",
  "lang" : "en"
} ]
