window.YTD.tweet.part0 = [ {
  "tweet" : {
    "retweeted" : false,
    "source" : "<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>",
    "entities" : {
      "hashtags" : [ ],
      "symbols" : [ ],
      "user_mentions" : [ ],
      "urls" : [ {
        "url" : "https://t.co/Tw2020aaaa",
        "expanded_url" : "https://example.org/2020",
        "display_url" : "example.org/2020",
        "indices" : [ "14", "37" ]
      } ]
    },
    "display_text_range" : [ "0", "37" ],
    "favorite_count" : "1",
    "id_str" : "1250000000000000001",
    "truncated" : false,
    "retweet_count" : "0",
    "id" : "1250000000000000001",
    "created_at" : "Tue Apr 14 18:00:01 +0000 2020",
    "favorited" : false,
    "full_text" : "Staying in &amp; https://t.co/Tw2020aaaa",
    "lang" : "en"
  }
}, {
  "tweet" : {
    "retweeted" : false,
    "entities" : {
      "hashtags" : [ ],
      "symbols" : [ ],
      "user_mentions" : [ ],
      "urls" : [ ],
      "media" : [ {
        "expanded_url" : "https://twitter.com/ada_example/status/1250000000000000002/photo/1",
        "indices" : [ "6", "29" ],
        "url" : "https://t.co/Pic2020bbb",
        "media_url" : "http://pbs.twimg.com/media/EVbread1.jpg",
        "id_str" : "1250000000000000099",
        "id" : "1250000000000000099",
        "media_url_https" : "https://pbs.twimg.com/media/EVbread1.jpg",
        "sizes" : { "large" : { "w" : "1024", "h" : "768", "resize" : "fit" } },
        "type" : "photo",
        "display_url" : "pic.twitter.com/Pic2020bbb"
      } ]
    },
    "extended_entities" : {
      "media" : [ {
        "expanded_url" : "https://twitter.com/ada_example/status/1250000000000000002/photo/1",
        "indices" : [ "6", "29" ],
        "url" : "https://t.co/Pic2020bbb",
        "media_url" : "http://pbs.twimg.com/media/EVbread1.jpg",
        "id_str" : "1250000000000000099",
        "id" : "1250000000000000099",
        "media_url_https" : "https://pbs.twimg.com/media/EVbread1.jpg",
        "sizes" : { "large" : { "w" : "1024", "h" : "768", "resize" : "fit" } },
        "type" : "photo",
        "display_url" : "pic.twitter.com/Pic2020bbb"
      } ]
    },
    "id_str" : "1250000000000000002",
    "id" : "1250000000000000002",
    "created_at" : "Wed Apr 15 07:30:00 +0000 2020",
    "full_text" : "Bread https://t.co/Pic2020bbb",
    "lang" : "en"
  }
} ]
