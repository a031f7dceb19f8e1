window.YTD.direct_messages.part0 = [ ]
