"""The web reader in a real browser, as independent checks (see scripts/browser-test).

`harness` starts `twfeed demo --serve` and Chromium and holds what several checks share
(made once, and checked for by each check that needs it); each other module holds
the checks of one concern, listed in its `CHECKS`; `runner` runs them, one failure
reported by name without stopping the rest.
"""
