/// The reader's stylesheet and its placeholder picture, compiled in: an installed
/// `twfeed` is one file, with nothing to find at run time.
enum StaticAssets {
    /// A grey silhouette with an intrinsic size, so a browser gives it a natural width.
    static let avatarSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">\
        <rect width="48" height="48" fill="#8899a6"/><circle cx="24" cy="19" r="9" fill="#e1e8ed"/>\
        <path d="M8 44c2-9 8-13 16-13s14 4 16 13z" fill="#e1e8ed"/></svg>
        """

    /// Light by default, dark where the system asks for it.
    static let css = """
        :root { --bg: #ffffff; --fg: #0f1419; --muted: #536471; --line: #eff3f4; --accent: #1d6fb8; --tag: #e8f1fa; --bad: #b3261e; --good: #1e7d32; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #15202b; --fg: #f7f9f9; --muted: #8b98a5; --line: #38444d; --accent: #6cb6ff; --tag: #1e3a52; --bad: #ff8a80; --good: #81c784; }
        }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 42rem; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
        header { position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line); padding: .6rem 1rem; z-index: 1; }
        nav a { margin-right: .8rem; font-weight: 600; } nav a[aria-current=page] { color: var(--fg); border-bottom: 2px solid var(--accent); }
        .brand { color: var(--fg); font-weight: 800; }
        form[role=search] { display: flex; gap: .4rem; margin: .5rem 0; }
        form[role=search] input { flex: 1; padding: .35rem .6rem; border: 1px solid var(--line); border-radius: 999px; background: var(--bg); color: var(--fg); }
        form[role=search] button { padding: .35rem .9rem; border: 0; border-radius: 999px; background: var(--accent); color: #fff; }
        .health { margin: .2rem 0; font-size: .85rem; } .health-healthy { color: var(--good); } .health-degraded, .health-not-running { color: var(--bad); }
        .polls { list-style: none; margin: 0; padding: 0; font-size: .8rem; color: var(--muted); display: flex; flex-wrap: wrap; gap: 0 1rem; }
        .error { color: var(--bad); }
        main { padding: 0 1rem; } h1 { font-size: 1.2rem; margin: .8rem 0; }
        .timeline { list-style: none; margin: 0; padding: 0; }
        .gap { padding: .6rem .75rem; margin: .5rem 0; border: 1px dashed var(--muted); border-radius: 4px; color: var(--muted); font-size: .9rem; }
        .gap p { margin: .2rem 0; }
        .tweet { display: flex; gap: .75rem; padding: .75rem 0; border-bottom: 1px solid var(--line); }
        .avatar { width: 48px; height: 48px; border-radius: 50%; flex: none; background: var(--line); }
        .body { min-width: 0; flex: 1; } .meta { margin: 0; color: var(--muted); } .name { color: var(--fg); font-weight: 700; }
        .username, .permalink { color: var(--muted); }
        .feed-tag { font-size: .72rem; background: var(--tag); color: var(--fg); border-radius: 4px; padding: 0 .35rem; }
        .context { margin: .15rem 0 0; font-size: .85rem; color: var(--muted); }
        .text { margin: .2rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
        .paging { padding: 1rem 0 2rem; text-align: center; } .message { color: var(--muted); }
        footer { padding: 1rem; font-size: .8rem; color: var(--muted); text-align: center; }
        .reposted { margin: 0 0 .1rem; font-size: .8rem; color: var(--muted); }
        .reply, .thread { color: var(--muted); font-size: .85rem; }
        .excerpt { font-style: italic; }
        .quoted { margin: .5rem 0 0; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: 12px; }
        .quoted .text { margin: .1rem 0 0; }
        .quoted-missing, .fault, .media-pending { color: var(--muted); font-size: .85rem; }
        .media { display: flex; flex-wrap: wrap; gap: .4rem; margin: .4rem 0 0; }
        .media img { max-width: 100%; max-height: 20rem; width: auto; height: auto; border-radius: 12px; border: 1px solid var(--line); }
        .media .play { position: relative; display: inline-block; }
        .focus .tweet { background: var(--tag); padding-left: .5rem; padding-right: .5rem; border-radius: 8px; }
        .ancestors .tweet, .replies .tweet { opacity: .95; }
        .compose textarea { width: 100%; font: inherit; padding: .5rem; border: 1px solid var(--line); border-radius: 8px; background: var(--bg); color: var(--fg); }
        .compose button, .signout button, .outbox button { padding: .35rem .9rem; border: 0; border-radius: 999px; background: var(--accent); color: #fff; }
        .signout { display: inline; margin-left: .5rem; }
        .who { font-size: .85rem; margin: .2rem 0; } .account { font-weight: 700; } .signed-out, .access-note { color: var(--bad); }
        .check-valid .verdict { color: var(--good); } .check-invalid .verdict { color: var(--bad); }
        .warning { color: var(--bad); }
        .outbox { width: 100%; border-collapse: collapse; font-size: .85rem; } .outbox td, .outbox th { border-bottom: 1px solid var(--line); padding: .3rem; text-align: left; vertical-align: top; }
        .status-text { white-space: pre-wrap; overflow-wrap: anywhere; } .reply-to, .part, .target { display: block; color: var(--muted); }
        .outbox .photos { margin: .2rem 0 0; padding-left: 1rem; color: var(--muted); white-space: normal; }
        .deleted { margin: .2rem 0 0; color: var(--muted); font-style: italic; }
        .compose fieldset { border: 1px solid var(--line); border-radius: 8px; margin: .5rem 0; } .compose .photo { margin: .3rem 0; }
        .compose details { margin: .4rem 0; } .compose summary { cursor: pointer; color: var(--accent); }
        .hint, .previous { color: var(--muted); font-size: .85rem; }
        """
}
