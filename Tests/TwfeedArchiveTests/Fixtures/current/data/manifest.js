window.__THAR_CONFIG = {
  "userInfo" : {
    "accountId" : "1000000001",
    "userName" : "ada_example",
    "displayName" : "Ada Example"
  },
  "archiveInfo" : {
    "sizeBytes" : "123456",
    "generationDate" : "2026-11-01T00:00:00.000Z",
    "isPartialArchive" : false,
    "maxPartSizeBytes" : "53687091200"
  },
  "readmeInfo" : {
    "fileName" : "data/README.txt",
    "directory" : "data/",
    "name" : "README.txt"
  },
  "dataTypes" : {
    "account" : { "files" : [ { "fileName" : "data/account.js", "globalName" : "YTD.account.part0", "count" : "1" } ] },
    "tweets" : {
      "mediaDirectory" : "data/tweets_media",
      "files" : [
        { "fileName" : "data/tweets.js", "globalName" : "YTD.tweets.part0", "count" : "9" },
        { "fileName" : "data/tweets-part1.js", "globalName" : "YTD.tweets.part1", "count" : "1" }
      ]
    },
    "noteTweet" : { "files" : [ { "fileName" : "data/note-tweet.js", "globalName" : "YTD.note_tweet.part0", "count" : "2" } ] },
    "like" : { "files" : [ { "fileName" : "data/like.js", "globalName" : "YTD.like.part0", "count" : "3" } ] },
    "deletedTweets" : { "files" : [ { "fileName" : "data/deleted-tweets.js", "globalName" : "YTD.deleted_tweets.part0", "count" : "0" } ] },
    "directMessages" : { "files" : [ { "fileName" : "data/direct-messages.js", "globalName" : "YTD.direct_messages.part0", "count" : "0" } ] },
    "professionalData" : { "files" : [ { "fileName" : "data/professional-data.js", "globalName" : "YTD.professional_data.part0", "count" : "0" } ] }
  }
}
