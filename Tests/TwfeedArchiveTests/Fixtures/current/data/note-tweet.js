window.YTD.note_tweet.part0 = [
  {
    "noteTweet" : {
      "noteTweetId" : "1699999999000000111",
      "updatedAt" : "2023-09-08T12:00:00.000Z",
      "lifecycle" : { "value" : "3", "name" : "Live", "originalValue" : "3", "originalName" : "Live" },
      "core" : {
        "styletags" : [ ],
        "urls" : [ { "shortUrl" : "https://t.co/WheEl00001", "expandedUrl" : "https://example.org/wheel", "displayUrl" : "example.org/wheel", "fromIndex" : "330", "toIndex" : "353" } ],
        "text" : "Here is the long answer you asked for, with all of the detail that did not fit before: first the weir, then the lock, then the mill race that feeds the old wheel, which still turns on Sundays in summer for the visitors who come up from the town by the towpath, & stops in winter when the race is drained. More at https://t.co/WheEl00001",
        "mentions" : [ ],
        "cashtags" : [ ],
        "hashtags" : [ ]
      },
      "createdAt" : "2023-09-08T12:00:00.000Z"
    }
  },
  {
    "noteTweet" : {
      "noteTweetId" : "1699999999000000110",
      "updatedAt" : "2023-09-08T11:00:00.000Z",
      "core" : {
        "styletags" : [ ],
        "urls" : [ ],
        "text" : "A long thought about rivers & weirs, which starts here and goes on well past what one post holds, because rivers are long and so are the thoughts one has about them while walking along the bank on a cold morning with nothing but a flask of tea and a notebook <for the birds>, which is how most of my posts begin.",
        "mentions" : [ ],
        "cashtags" : [ ],
        "hashtags" : [ ]
      },
      "createdAt" : "2023-09-08T11:00:00.000Z"
    }
  }
]
