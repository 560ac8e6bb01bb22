"""A server's own content: terms its editors define in Discord (server_terms.py: every version kept, an overlay
served only in that server, checked by the same rules as the term files) and terms members propose for the
editors to publish or reject (proposals.py, which publishes through server_terms); who besides the moderators may
edit them (editors.py: each server's editor role, kept in memory a short while). Read server_terms.py first;
reads.py lets callers that come while a read is under way await it rather than read again."""
