"""Loads pages in headless Chromium over the DevTools protocol (a pipe,
no port) at given widths, as a phone and as a desktop: for each page and
width it prints one JSON line with the page's scroll width, the window's
inner width and the answers of the given expressions, and keeps a
screenshot. The pages themselves run no script; the expressions are the
test's, evaluated from outside.

Arguments: one JSON object {"chromium", "pages", "widths", "out",
"expressions"} on standard input."""

import base64
import fcntl
import json
import os
import subprocess
import sys
import tempfile

job = json.load(sys.stdin)


def high(fd):
    # Above 4, so that placing the child's ends on 3 and 4 clobbers none.
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


to_chrome_r, to_chrome_w = map(high, os.pipe())
from_chrome_r, from_chrome_w = map(high, os.pipe())


def fds():
    # Chromium reads commands on fd 3 and writes answers on fd 4.
    os.dup2(to_chrome_r, 3)
    os.dup2(from_chrome_w, 4)


profile = tempfile.mkdtemp()
chrome = subprocess.Popen(
    [
        job["chromium"],
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--remote-debugging-pipe",
        "--user-data-dir=" + profile,
        "about:blank",
    ],
    preexec_fn=fds,
    # Kept open in the child once preexec_fn has placed them.
    pass_fds=(3, 4),
    stdout=subprocess.DEVNULL,
    stderr=None if os.environ.get("CDP_DEBUG") else subprocess.DEVNULL,
)
os.close(to_chrome_r)
os.close(from_chrome_w)
writer = os.fdopen(to_chrome_w, "wb")
reader = os.fdopen(from_chrome_r, "rb")
buffered = b""
next_id = 0
events = []


def receive():
    global buffered
    while b"\0" not in buffered:
        chunk = reader.read1(65536)
        if not chunk:
            raise SystemExit("chromium closed the pipe")
        buffered += chunk
    message, buffered = buffered.split(b"\0", 1)
    return json.loads(message)


def call(method, params=None, session=None):
    global next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    writer.write(json.dumps(message).encode() + b"\0")
    writer.flush()
    while True:
        answer = receive()
        if answer.get("id") == next_id:
            if "error" in answer:
                raise SystemExit(f"{method}: {answer['error']}")
            return answer["result"]
        events.append(answer)


def wait_for(method, session):
    while True:
        for i, event in enumerate(events):
            if event.get("method") == method and event.get("sessionId") == session:
                del events[i]
                return event
        events.append(receive())


try:
    target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    call("Page.enable", session=session)
    for width in job["widths"]:
        call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
            session,
        )
        for page in job["pages"]:
            events.clear()
            call("Page.navigate", {"url": page["url"]}, session)
            wait_for("Page.loadEventFired", session)
            answers = {}
            for name, expression in job["expressions"].items():
                result = call(
                    "Runtime.evaluate",
                    {"expression": expression, "returnByValue": True},
                    session,
                )
                answers[name] = result["result"].get("value")
            shot = call("Page.captureScreenshot", {"format": "png"}, session)
            path = os.path.join(job["out"], f"{page['name']}-{width}.png")
            with open(path, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            print(json.dumps({"page": page["name"], "width": width, **answers}), flush=True)
finally:
    chrome.kill()
    chrome.wait()
