"""What a viewer sees, for every door: the page's context and partials (presenters), the
sentences (words), the downloads (JSON and records), and (live) the renderings per audience.

Below the doors (web, api, live, admin): they import this package; it imports none of them.
"""
