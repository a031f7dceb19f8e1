window.YTD.deleted_tweets.part0 = [ ]
