/* The header is the whole module; SwiftPM wants one source file per C target. */
