window.YTD.account.part0 = [
  {
    "account" : {
      "email" : "ada@example.invalid",
      "createdVia" : "web",
      "username" : "ada_example",
      "accountId" : "1000000001",
      "createdAt" : "2011-03-02T09:00:00.000Z",
      "accountDisplayName" : "Ada Example"
    }
  }
]
