window.YTD.like.part0 = [ {
  "like" : {
    "tweetId" : "1240000000000000001",
    "fullText" : "Bake bread &lt;now&gt;",
    "expandedUrl" : "https://twitter.com/i/web/status/1240000000000000001"
  }
} ]
