#!/usr/bin/env python3
"""A scripted person with a browser, for the tests' $BROWSER: `browser.py URL` (executable, any python3: it uses
the standard library only).

For an authorization URL (the authorization code grant, `…/authorize/?response_type=code&…`) it signs in on the
provider's login page, approves (or denies) on Django OAuth Toolkit's authorization page, and requests the
redirect's location, the client's loopback `http://127.0.0.1:PORT/callback?code=…&state=…`, as a browser follows
it. For a device verification URL (RFC 8628: DOT's `…/device/` or the Authlib fixture's `/device`, or
verification_uri_complete with `?user_code=`) it signs in, enters the user code and approves (or denies) the
device: on DOT's pages with the code's form, then the accept or deny button of the next; on a page whose code
form has the decision too (buttons named allowed, 1 or 0, as Authlib's documentation's verification page) at once.

The environment says what to do:
  BROWSER_USER, BROWSER_PASSWORD  the account to sign in with
  BROWSER_ACTION                  approve (the default), deny, wrong-state (approve, request the loopback URL with
                                  another state, then with the right one), twice (approve, request the loopback URL twice; the
                                  second request may be refused, which is no failure), none (do nothing at all);
                                  for a device, wrong-state and twice approve
  BROWSER_USER_CODE               the device flow's user code; else the URL's user_code
  BROWSER_LOG                     a file to append each step to: method, URL, status, redirect; the values of code,
                                  state, code_verifier, device_code and cookies are [hidden], and no form's content
                                  is written
  BROWSER_DETACH=1                return at once, as a desktop's opener does, and go on in a process of its own

It never writes to standard output (which it closes at once, so that it holds no pipe of the program that ran
it), reads no standard input, waits at most 30 s for each answer, and exits 0 once done; with a message on
standard error and 1 if a step fails (a form that is not there, an unexpected answer, a refused connection).
"""

import html
import http.cookiejar
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

TIMEOUT = 30
HIDDEN = {"code", "state", "code_verifier", "device_code", "csrfmiddlewaretoken", "password", "access_token",
          "refresh_token", "id_token"}
ACTIONS = {"approve", "deny", "wrong-state", "twice", "none"}


class Failure(Exception):
    pass


# MARK: - Logging


def hide(url):
    """The URL with the values of HIDDEN parameters replaced by [hidden], also in URLs nested in parameters
    (the login page's next=)."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return "[unparsable URL]"
    if not parts.query:
        return url
    pairs = []
    for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        if key in HIDDEN:
            value = "[hidden]"
        elif "?" in value:
            value = hide(value)
        pairs.append((key, value))
    query = urllib.parse.urlencode(pairs, safe="[]/:")
    return urllib.parse.urlunsplit(parts._replace(query=query))


class Log:
    def __init__(self, path):
        self.path = path

    def __call__(self, line):
        if not self.path:
            return
        try:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(f"{time.strftime('%H:%M:%S')} [{os.getpid()}] {line}\n")
        except OSError:
            pass


# MARK: - HTML


class Forms(HTMLParser):
    """The page's forms: each a dict with action, method, id, fields (input name → value, hidden or not, in
    order: list of (name, value, type)), and buttons (list of (name, value))."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self.current = None
        self.text = []
        self.button = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.current = {"action": a.get("action", ""), "method": a.get("method", "get").lower(),
                            "id": a.get("id", ""), "fields": [], "buttons": []}
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input":
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image"):
                self.current["buttons"].append((a.get("name", ""), a.get("value", ""), a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.current["fields"].append((a.get("name", ""), a.get("value", "on"), kind))
            elif a.get("name"):
                self.current["fields"].append((a["name"], a.get("value", ""), kind))
        elif tag == "button":
            if a.get("type", "submit").lower() == "submit":
                self.button = [a.get("name", ""), a.get("value", ""), ""]
                self.current["buttons"].append(self.button)
        elif tag == "textarea" and a.get("name"):
            self.current["fields"].append((a["name"], "", "textarea"))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "button" and self.button is not None:
            self.button[2] = self.button[2].strip()
            self.button = None

    def handle_data(self, data):
        self.text.append(data)
        if self.button is not None:
            self.button[2] += data


def parse(body):
    page = Forms()
    page.feed(body)
    page.close()
    return page


def summary(body, limit=300):
    """The page's text, shortened, for a failure's message."""
    text = " ".join(" ".join(parse(body).text).split())
    return text[:limit] + ("…" if len(text) > limit else "")


# MARK: - HTTP


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # the 3xx answer comes back as an HTTPError, which fetch treats as an answer


class Answer:
    def __init__(self, url, status, headers, body):
        self.url, self.status, self.headers, self.body = url, status, headers, body

    @property
    def location(self):
        value = self.headers.get("Location")
        return urllib.parse.urljoin(self.url, value) if value else None


class Browser:
    def __init__(self, log):
        self.log = log
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),  # loopback servers only: never an http_proxy from the environment
            urllib.request.HTTPCookieProcessor(self.cookies),
            NoRedirects())
        self.opener.addheaders = [("User-Agent", "swaggerctl-tests-browser/1"), ("Accept", "text/html,*/*")]

    def fetch(self, url, form=None, referer=None):
        """One request, GET or (with form, a list of pairs) POST, without following a redirect."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
        if data is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
            names = ", ".join(sorted({name for name, _ in form}))
        if referer:
            request.add_header("Referer", referer)
        what = f"{request.get_method()} {hide(url)}" + (f" (fields: {names})" if data is not None else "")
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                answer = Answer(url, response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            with error:
                answer = Answer(url, error.code, error.headers, error.read())
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            self.log(f"{what} -> failed: {reason}")
            raise Failure(f"{request.get_method()} {hide(url)} failed: {reason}") from None
        answer.text = answer.body.decode("utf-8", "replace")
        cookies = ", ".join(sorted(f"{c.name}=[hidden]" for c in self.cookies))
        self.log(f"{what} -> {answer.status}"
                 + (f" Location: {hide(answer.location)}" if answer.location else "")
                 + (f" (cookies: {cookies})" if cookies else ""))
        return answer

    def follow(self, answer, origin):
        """Follows redirects that stay on origin (scheme://host:port); returns the first answer that is not
        such a redirect."""
        for _ in range(10):
            if answer.status not in (301, 302, 303, 307, 308) or not answer.location:
                return answer
            if origin_of(answer.location) != origin:
                return answer
            answer = self.fetch(answer.location, referer=answer.url)
        raise Failure(f"too many redirects at {hide(answer.url)}")


def origin_of(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


# MARK: - The person


def find_form(answer, what, test):
    for form in parse(answer.text).forms:
        if test(form):
            return form
    raise Failure(f"no {what} form at {hide(answer.url)} (HTTP {answer.status}): {summary(answer.text)}")


def submit(browser, answer, form, fields, button=None):
    """Submits form as a browser does: its fields, changed by `fields`, and the named button pressed."""
    values = [(name, fields.get(name, value)) for name, value, _ in form["fields"]]
    present = {name for name, _ in values}
    values += [(name, value) for name, value in fields.items() if name not in present]
    if button is not None and button[0]:
        values.append((button[0], button[1]))
    action = urllib.parse.urljoin(answer.url, form["action"]) if form["action"] else answer.url
    if form["method"] != "post":
        raise Failure(f"the form at {hide(answer.url)} is not a POST form")
    return browser.fetch(action, form=values, referer=answer.url)


def sign_in_if_asked(browser, answer, origin, user, password):
    """If the answer is the login page (a form with a password field), signs in and returns the page it leads
    back to; else the answer itself."""
    forms = parse(answer.text).forms if answer.status == 200 else []
    login = next((f for f in forms if any(kind == "password" for _, _, kind in f["fields"])), None)
    if login is None:
        return answer
    if user is None or password is None:
        raise Failure("the provider asks to sign in, and BROWSER_USER or BROWSER_PASSWORD is not set")
    names = [name for name, _, kind in login["fields"] if kind in ("text", "email")]
    secret = next(name for name, _, kind in login["fields"] if kind == "password")
    if not names:
        raise Failure(f"the login form at {hide(answer.url)} has no user name field")
    button = login["buttons"][0] if login["buttons"] else None
    after = browser.follow(submit(browser, answer, login, {names[0]: user, secret: password}, button), origin)
    if after.status == 200 and any(
            any(kind == "password" for _, _, kind in f["fields"]) for f in parse(after.text).forms):
        raise Failure(f"signing in as {user} failed: {summary(after.text)}")
    return after


def authorization_code(browser, url, action, user, password, log):
    origin = origin_of(url)
    page = browser.follow(browser.fetch(url), origin)
    page = sign_in_if_asked(browser, page, origin, user, password)
    if page.status in (301, 302, 303, 307, 308):
        # The provider sends the browser to the client at once: an error it may redirect, or no consent needed.
        redirect = page.location
    else:
        if page.status != 200:
            raise Failure(f"the authorization page {hide(page.url)} answered HTTP {page.status}: "
                          f"{summary(page.text)}")
        form = find_form(page, "authorization", lambda f: f["id"] == "authorizationForm" or any(
            name == "allow" for name, _, _ in f["buttons"]))
        if action == "deny":
            # DOT's Cancel button has no name: the form goes without allow.
            cancel = next((b for b in form["buttons"] if b[0] != "allow"), None)
            answer = submit(browser, page, form, {}, cancel)
        else:
            allow = next((b for b in form["buttons"] if b[0] == "allow"), None)
            if allow is None:
                raise Failure(f"the authorization form at {hide(page.url)} has no allow button")
            answer = submit(browser, page, form, {}, allow)
        answer = browser.follow(answer, origin)
        if answer.status not in (301, 302, 303, 307, 308) or not answer.location:
            raise Failure(f"the authorization form's answer was HTTP {answer.status}, not a redirect to the "
                          f"client: {summary(answer.text)}")
        redirect = answer.location
    if action == "wrong-state":
        # Another local process racing the browser: the same code, without the login's state, first.
        parts = urllib.parse.urlsplit(redirect)
        pairs = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if k != "state"]
        pairs.append(("state", "not-the-state-" + os.urandom(6).hex()))
        log("sent the redirect with another state first")
        callback(browser, urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(pairs))))
    callback(browser, redirect)
    if action == "twice":
        try:
            callback(browser, redirect)
        except Failure as failure:
            log(f"the second request to the client failed, as it may: {failure}")


def callback(browser, url):
    """The request to the client's redirect URI: any answer is an answer; only a failed connection fails."""
    answer = browser.fetch(url)
    browser.log(f"the client answered HTTP {answer.status}: {summary(answer.text, 120)}")


def device(browser, url, action, user, password, user_code, log):
    origin = origin_of(url)
    page = browser.follow(browser.fetch(url), origin)
    page = sign_in_if_asked(browser, page, origin, user, password)
    if page.status != 200:
        raise Failure(f"the device page {hide(page.url)} answered HTTP {page.status}: {summary(page.text)}")
    form = find_form(page, "user code", lambda f: any(name == "user_code" for name, _, _ in f["fields"]))
    if user_code is None:
        user_code = next(value for name, value, _ in form["fields"] if name == "user_code")
    if not user_code:
        raise Failure("no user code: set BROWSER_USER_CODE, or open a URL with ?user_code=")
    decisions = [b for b in form["buttons"] if b[0] == "allowed"]
    if decisions:
        # The code and the decision in one form (the Authlib fixture's page): allowed=1 approves, 0 denies.
        want = "0" if action == "deny" else "1"
        button = next((b for b in decisions if b[1] == want), None)
        if button is None:
            raise Failure(f"the user code form at {hide(page.url)} has no allowed={want} button")
        done = browser.follow(submit(browser, page, form, {"user_code": user_code}, button), origin)
        if done.status != 200:
            raise Failure(f"the allowed={want} button led to HTTP {done.status} at {hide(done.url)}: "
                          f"{summary(done.text)}")
        log(f"the provider says: {summary(done.text, 120)}")
        return
    button = form["buttons"][0] if form["buttons"] else None
    answer = browser.follow(submit(browser, page, form, {"user_code": user_code}, button), origin)
    if answer.status != 200:
        raise Failure(f"entering the user code led to HTTP {answer.status} at {hide(answer.url)}: "
                      f"{summary(answer.text)}")
    want = "deny" if action == "deny" else "accept"
    confirm = find_form(answer, "approval", lambda f: any(value == want for _, value, _ in f["buttons"]))
    button = next(b for b in confirm["buttons"] if b[1] == want)
    done = browser.follow(submit(browser, answer, confirm, {}, button), origin)
    if done.status != 200:
        raise Failure(f"the {want} button led to HTTP {done.status} at {hide(done.url)}: {summary(done.text)}")
    log(f"the provider says: {summary(done.text, 120)}")


def page_target(argument):
    """The address to open: the argument itself, or, for a local page (a path or file: URL), the address its
    meta refresh forwards to, as a browser follows it."""
    path = urllib.parse.urlsplit(argument).path if argument.startswith("file:") else argument
    if not path.startswith("/") or not os.path.isfile(path):
        return argument
    with open(path, encoding="utf-8") as page:
        found = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', page.read())
    return html.unescape(found.group(1)) if found else argument


def main():
    # No standard output, ever: the program that runs us keeps its own clean, and may read it to its end.
    try:
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 1)
        os.dup2(null, 0)
        os.close(null)
    except OSError:
        pass
    log = Log(os.environ.get("BROWSER_LOG"))
    action = os.environ.get("BROWSER_ACTION", "approve") or "approve"
    if len(sys.argv) != 2:
        return fail(log, f"usage: {os.path.basename(sys.argv[0])} URL (given {len(sys.argv) - 1} arguments)")
    url = page_target(sys.argv[1])
    if action not in ACTIONS:
        return fail(log, f"BROWSER_ACTION={action}: not one of {', '.join(sorted(ACTIONS))}")
    if os.environ.get("BROWSER_DETACH") == "1" and action != "none":
        if os.fork() != 0:
            os._exit(0)
        os.setsid()
    log(f"{action} {hide(url)}")
    if action == "none":
        return 0
    browser = Browser(log)
    user, password = os.environ.get("BROWSER_USER"), os.environ.get("BROWSER_PASSWORD")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    try:
        if "response_type" in query or urllib.parse.urlsplit(url).path.rstrip("/").endswith("/authorize"):
            authorization_code(browser, url, action, user, password, log)
        else:
            user_code = os.environ.get("BROWSER_USER_CODE") or query.get("user_code")
            device(browser, url, action, user, password, user_code, log)
    except Failure as failure:
        return fail(log, str(failure))
    except Exception as error:  # a bug here, or a page it did not expect
        return fail(log, f"{type(error).__name__}: {error}")
    log("done")
    return 0


def fail(log, message):
    log(f"failed: {message}")
    try:
        print(f"browser.py: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # nobody is reading any more
        pass
    return 1


if __name__ == "__main__":
    sys.exit(main())
