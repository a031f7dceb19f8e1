window.YTD.tweets.part0 = [
  {
    "tweet" : {
      "edit_info" : {
        "initial" : {
          "editTweetIds" : [ "1700000000000000001" ],
          "editableUntil" : "2023-09-08T10:00:00.000Z",
          "editsRemaining" : "5",
          "isEditEligible" : true
        }
      },
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [ ],
        "symbols" : [ ],
        "user_mentions" : [ ],
        "urls" : [
          {
            "url" : "https://t.co/AbCdEf1234",
            "expanded_url" : "https://example.org/fish&chips",
            "display_url" : "example.org/fish&chips",
            "indices" : [ "25", "48" ]
          }
        ]
      },
      "display_text_range" : [ "0", "48" ],
      "favorite_count" : "3",
      "id_str" : "1700000000000000001",
      "truncated" : false,
      "retweet_count" : "0",
      "id" : "1700000000000000001",
      "created_at" : "Fri Sep 08 09:00:00 +0000 2023",
      "favorited" : false,
      "full_text" : "Fish &amp; chips &lt;3 🐟 https://t.co/AbCdEf1234",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "retweeted" : false,
      "entities" : {
        "hashtags" : [ ],
        "symbols" : [ ],
        "user_mentions" : [ ],
        "urls" : [ ],
        "media" : [
          {
            "expanded_url" : "https://twitter.com/ada_example/status/1700000000000000002/photo/1",
            "indices" : [ "13", "36" ],
            "url" : "https://t.co/PhOtO12345",
            "media_url" : "http://pbs.twimg.com/media/F5xYzAbC.jpg",
            "id_str" : "1699999999999990001",
            "id" : "1699999999999990001",
            "media_url_https" : "https://pbs.twimg.com/media/F5xYzAbC.jpg",
            "sizes" : {
              "large" : { "w" : "2048", "h" : "1536", "resize" : "fit" },
              "thumb" : { "w" : "150", "h" : "150", "resize" : "crop" }
            },
            "type" : "photo",
            "display_url" : "pic.twitter.com/PhOtO12345"
          }
        ]
      },
      "extended_entities" : {
        "media" : [
          {
            "expanded_url" : "https://twitter.com/ada_example/status/1700000000000000002/photo/1",
            "indices" : [ "13", "36" ],
            "url" : "https://t.co/PhOtO12345",
            "media_url" : "http://pbs.twimg.com/media/F5xYzAbC.jpg",
            "id_str" : "1699999999999990001",
            "id" : "1699999999999990001",
            "media_url_https" : "https://pbs.twimg.com/media/F5xYzAbC.jpg",
            "sizes" : {
              "large" : { "w" : "2048", "h" : "1536", "resize" : "fit" },
              "thumb" : { "w" : "150", "h" : "150", "resize" : "crop" }
            },
            "type" : "photo",
            "display_url" : "pic.twitter.com/PhOtO12345",
            "ext_alt_text" : "A heron on a post"
          },
          {
            "expanded_url" : "https://twitter.com/ada_example/status/1700000000000000002/video/1",
            "indices" : [ "13", "36" ],
            "url" : "https://t.co/PhOtO12345",
            "media_url" : "http://pbs.twimg.com/ext_tw_video_thumb/1699999999999990002/pu/img/VidThumb.jpg",
            "id_str" : "1699999999999990002",
            "id" : "1699999999999990002",
            "media_url_https" : "https://pbs.twimg.com/ext_tw_video_thumb/1699999999999990002/pu/img/VidThumb.jpg",
            "sizes" : { "large" : { "w" : "1280", "h" : "720", "resize" : "fit" } },
            "type" : "video",
            "display_url" : "pic.twitter.com/PhOtO12345"
          }
        ]
      },
      "id_str" : "1700000000000000002",
      "id" : "1700000000000000002",
      "created_at" : "Fri Sep 08 09:05:00 +0000 2023",
      "full_text" : "Heron, again https://t.co/PhOtO12345",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ],
        "user_mentions" : [ { "name" : "Bob", "screen_name" : "bob", "indices" : [ "0", "4" ], "id_str" : "2000000002", "id" : "2000000002" } ] },
      "id_str" : "1700000000000000003",
      "id" : "1700000000000000003",
      "in_reply_to_status_id_str" : "1690000000000000009",
      "in_reply_to_status_id" : "1690000000000000009",
      "in_reply_to_user_id_str" : "2000000002",
      "in_reply_to_screen_name" : "bob",
      "created_at" : "Fri Sep 08 10:00:00 +0000 2023",
      "full_text" : "@bob Agreed &gt; disagreed",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ], "user_mentions" : [ ] },
      "id_str" : "1700000000000000004",
      "id" : "1700000000000000004",
      "created_at" : "Fri Sep 08 11:00:00 +0000 2023",
      "full_text" : "A long thought about rivers &amp; weirs, which starts here and goes on well past what one post holds, because rivers are long and so are the thoughts one has about them while walking along the bank on a cold morning with nothing but a flask of tea and a…",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ], "user_mentions" : [ ] },
      "id_str" : "1700000000000000005",
      "id" : "1700000000000000005",
      "created_at" : "Fri Sep 08 11:00:00 +0000 2023",
      "full_text" : "A short one in the same second",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ],
        "user_mentions" : [ { "name" : "Bob", "screen_name" : "bob", "indices" : [ "0", "4" ], "id_str" : "2000000002", "id" : "2000000002" },
                             { "name" : "Cy", "screen_name" : "cy_2", "indices" : [ "5", "10" ], "id_str" : "2000000003", "id" : "2000000003" } ] },
      "id_str" : "1700000000000000006",
      "id" : "1700000000000000006",
      "in_reply_to_status_id_str" : "1700000000000000003",
      "in_reply_to_status_id" : "1700000000000000003",
      "in_reply_to_screen_name" : "bob",
      "created_at" : "Fri Sep 08 12:00:00 +0000 2023",
      "full_text" : "@bob @cy_2 Here is the long answer you asked for, with all of the detail that did not fit before: first the weir, then the lock, then the mill race that feeds the old wheel, which still turns on Sundays in summer for the visitors who come up from the town by… https://t.co/NoTe000001",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ],
        "user_mentions" : [ { "name" : "Dee", "screen_name" : "dee", "indices" : [ "3", "7" ], "id_str" : "2000000004", "id" : "2000000004" } ] },
      "id_str" : "1700000000000000007",
      "id" : "1700000000000000007",
      "retweeted" : false,
      "created_at" : "Fri Sep 08 13:00:00 +0000 2023",
      "full_text" : "RT @dee: The best river walks in the county, a thread of the ones I have done this year and would do again in…",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "edit_info" : { "edit" : { "initialTweetId" : "1700000000000000008", "editControlInitial" : { "editTweetIds" : [ "1700000000000000008", "1700000000000000009" ] } } },
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ], "user_mentions" : [ ] },
      "id_str" : "1700000000000000008",
      "id" : "1700000000000000008",
      "created_at" : "Fri Sep 08 14:00:00 +0000 2023",
      "full_text" : "Frist version",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "edit_info" : { "edit" : { "initialTweetId" : "1700000000000000008", "editControlInitial" : { "editTweetIds" : [ "1700000000000000008", "1700000000000000009" ] } } },
      "entities" : { "hashtags" : [ ], "symbols" : [ ], "urls" : [ ], "user_mentions" : [ ] },
      "id_str" : "1700000000000000009",
      "id" : "1700000000000000009",
      "created_at" : "Fri Sep 08 14:02:00 +0000 2023",
      "full_text" : "First version",
      "lang" : "en"
    }
  }
]
