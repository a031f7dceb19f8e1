window.YTD.like.part0 = [ {
  "like" : {
    "tweetId" : "1100000000000000001",
    "fullText" : "An old like",
    "expandedUrl" : "https://twitter.com/i/web/status/1100000000000000001"
  }
} ]
