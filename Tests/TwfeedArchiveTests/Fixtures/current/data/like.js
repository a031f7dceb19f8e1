window.YTD.like.part0 = [
  {
    "like" : {
      "tweetId" : "1650000000000000001",
      "fullText" : "Salt &amp; vinegar is the only crisp",
      "expandedUrl" : "https://twitter.com/i/web/status/1650000000000000001"
    }
  },
  {
    "like" : {
      "tweetId" : "1650000000000000002",
      "expandedUrl" : "https://twitter.com/i/web/status/1650000000000000002"
    }
  },
  {
    "like" : {
      "tweetId" : "1650000000000000003",
      "fullText" : "A very long post that the archive cuts off somewhere in the middle of…",
      "expandedUrl" : "https://twitter.com/i/web/status/1650000000000000003"
    }
  }
]
