#!/usr/bin/env python3
"""A small Claude Code adapter for the Agent Event Protocol, in the style a third party would
write one: Python standard library only, built from the AEP documents (AEP-0001 envelope,
AEP-0002 types and the Claude Code mapping of Annex A, AEP-0003 hello and WebSocket binding,
AEP-0004 control profile), not from any implementation's code.

    python3 adapter.py --relay http://127.0.0.1:8787 --token TOKEN [--port 0]

It serves Claude Code's HTTP hooks (POST /hook/<HookEvent>, the hook input as the body, the hook
reply as the answer) and GET /healthz ({"relay": true} once the relay answered our hello), prints
its URL (http://127.0.0.1:PORT) on stdout, and links to the relay's /socket with a bearer token.

Declared: control.attention.respond only (no steering, no forms). A PermissionRequest is held
until an operator answers it or the hold window (AEP_ATTENTION_TIMEOUT_MS, default 55000) ends,
when it fails open with Claude Code's neutral reply ({}).

EXAMPLE_BREAK (for the conformance suite's own tests, never in use): `no-ack` (commands are never
acknowledged), `second-terminal` (every run.finished is sent twice), `over-ceiling` (the prompt
text rides on run.started at the metadata ceiling).
"""
import argparse
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

AGENT = "claude-code"
ACCEPTS = ["control.attention.respond"]
NEUTRAL = "{}"
BREAK = os.environ.get("EXAMPLE_BREAK", "")


def dumps(value):
    """Our reply and event formatting: spaced JSON (Claude Code parses it; bytes do not matter)."""
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


def digest(value):
    """AEP-0003 §9.3: SHA-256 over the canonical JSON, first 16 bytes in lowercase hex."""
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def now():
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)


class Relay:
    """A minimal WebSocket client (RFC 6455 text frames) for the relay's /socket."""

    def __init__(self, url, token, hello, on_frame):
        self.url, self.token, self.hello, self.on_frame = urlparse(url), token, hello, on_frame
        self.sock, self.ready, self.lock = None, False, threading.Lock()

    def start(self):
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            try:
                self._connect()
                self._read()
            except OSError as err:
                sys.stderr.write("relay link: %s\n" % err)
            self.ready = False
            time.sleep(0.5)

    def _connect(self):
        host, port = self.url.hostname, self.url.port or 80
        sock = socket.create_connection((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET /socket HTTP/1.1", "Host: %s:%d" % (host, port), "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13"]
        if self.token:
            lines.append("Authorization: Bearer " + self.token)
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)
            if not chunk:
                raise OSError("the relay closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise OSError("the relay refused the upgrade: " + head.split(b"\r\n")[0].decode())
        self.sock = sock
        self._send_text(dumps(self.hello))

    def _recv_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise OSError("the relay closed the connection")
            data += chunk
        return data

    def _read(self):
        while True:
            b1, b2 = self._recv_exact(2)
            opcode, length = b1 & 0x0F, b2 & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._recv_exact(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._recv_exact(8))[0]
            payload = self._recv_exact(length)
            if opcode == 8:
                raise OSError("the relay closed the socket")
            if opcode == 9:
                self._send(0xA, payload)
                continue
            if opcode != 1:
                continue
            frame = json.loads(payload.decode("utf-8"))
            if not self.ready and frame.get("type") == "hello":
                self.ready = True
                continue
            if frame.get("type") == "error":
                sys.stderr.write("relay error: %s %s\n" % (frame.get("code"), frame.get("detail", "")))
                continue
            self.on_frame(frame)

    def _send(self, opcode, payload):
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def _send_text(self, text):
        self._send(0x1, text.encode("utf-8"))

    def send(self, text):
        if self.sock is not None:
            self._send_text(text)


class Adapter:
    def __init__(self, relay_url, token, hold_ms):
        self.hold_ms = hold_ms
        self.epoch = int(time.time() * 1000)  # a new epoch per process: our counters are not durable
        self.lock = threading.RLock()
        self.seq = {}          # session -> next seq
        self.open = set()      # sessions started and not ended
        self.known = set()     # sessions ever started here
        self.ended = set()     # sessions whose session.ended was sent
        self.run = {}          # session -> open run id
        self.turns = 0
        self.calls = {}        # (session, call_id) -> (tool.requested id, tool name, args digest)
        self.pending = {}      # request id -> held request
        self.acks = {}         # (source, command id) -> recorded ack line
        hello = {"type": "hello", "versions": ["0.1"], "role": "emitter",
                 "identity": {"agent": AGENT, "instance": "%s/%d" % (socket.gethostname(), os.getpid())},
                 "capabilities": {"emits": ["session", "run", "tool", "attention", "control"],
                                  "capture": ["none", "metadata", "redacted"],
                                  "control": {"accepts": ACCEPTS, "ack_window_ms": 10000}}}
        self.relay = Relay(relay_url, token, hello, self.on_command)

    # -- events ------------------------------------------------------------------------------
    def emit(self, session, type_, data, capture="metadata", **attrs):
        with self.lock:
            seq = self.seq.get(session, 0)
            self.seq[session] = seq + 1
            event = {"aep": "0.1", "id": uuid.uuid4().hex, "type": type_, "time": now(),
                     "source": "aep://%s/%s/%s" % (socket.gethostname(), AGENT, session), "agent": AGENT,
                     "session": session, "seq": seq, "epoch": self.epoch, "capture": capture}
            event.update({k: v for k, v in attrs.items() if v is not None})
            event["data"] = data
            line = dumps(event)
            self.relay.send(line)
            return event, line

    def ensure_session(self, session):
        if session not in self.open:
            self.open.add(session)
            if session not in self.known:
                self.known.add(session)
                self.emit(session, "session.started", {"client": {"name": AGENT}})

    def open_run(self, session):
        return self.run.get(session)

    def close_run(self, session, type_, data):
        run = self.run.pop(session, None)
        if run is not None:
            self.emit(session, type_, data, run=run)
            if BREAK == "second-terminal" and type_ == "run.finished":
                self.emit(session, type_, data, run=run)

    def request_call(self, session, name, call_id, tool_input):
        key = (session, call_id)
        if key not in self.calls:
            event, _ = self.emit(session, "tool.requested", {"tool": {"name": name, "call_id": call_id}, "args_digest": digest(tool_input)},
                                 run=self.open_run(session))
            self.calls[key] = (event["id"], name, digest(tool_input))
        return self.calls[key][0]

    # -- hooks -------------------------------------------------------------------------------
    def hook(self, name, body):
        session = str(body.get("session_id") or "unknown")
        with self.lock:
            if name == "SessionStart":
                self.ensure_session(session)
            elif name == "SessionEnd":
                self.end_session(session)
            elif name == "UserPromptSubmit":
                self.ensure_session(session)
                if session in self.run:
                    self.close_run(session, "run.cancelled", {"by": "user"})
                self.turns += 1
                # Our run ids: a per-process turn counter and a random tail, new for every turn.
                self.run[session] = "turn-%d-%s" % (self.turns, uuid.uuid4().hex[:8])
                data = {"trigger": "user"}
                if BREAK == "over-ceiling":
                    data["prompt"] = str(body.get("prompt", ""))
                self.emit(session, "run.started", data, run=self.run[session])
            elif name == "Stop":
                self.close_run(session, "run.finished", {})
            elif name == "StopFailure":
                self.close_run(session, "run.failed", {"reason": "error"})
            elif name == "PreToolUse":
                self.ensure_session(session)
                self.request_call(session, str(body.get("tool_name", "")), str(body.get("tool_use_id") or uuid.uuid4().hex), body.get("tool_input", {}))
            elif name in ("PostToolUse", "PostToolUseFailure"):
                self.tool_end(session, name, body)
            elif name == "PermissionRequest":
                if body.get("tool_name") == "AskUserQuestion":
                    return NEUTRAL  # forms are not declared: Claude Code asks in its own UI
                return self.hold(session, body)
        return NEUTRAL

    def tool_end(self, session, name, body):
        tool = str(body.get("tool_name", ""))
        call_id = str(body.get("tool_use_id") or uuid.uuid4().hex)
        self.ensure_session(session)
        # A permission request still held for this very call is over: Claude Code went on without it.
        for req_id, held in list(self.pending.items()):
            if held["session"] == session and held["tool"] == tool and held["digest"] == digest(body.get("tool_input", {})):
                self.settle(req_id, NEUTRAL, ("attention.resolved", {"resolution": "dismissed"}, req_id))
        cause = self.request_call(session, tool, call_id, body.get("tool_input", {}))
        ref = {"name": tool, "call_id": call_id}
        if name == "PostToolUse":
            self.emit(session, "tool.completed", {"tool": ref}, run=self.open_run(session), cause=cause)
        else:
            error = {"type": "interrupted"} if body.get("is_interrupt") else {}
            self.emit(session, "tool.failed", {"tool": ref, "error": error}, run=self.open_run(session), cause=cause)
        self.calls.pop((session, call_id), None)

    def end_session(self, session):
        if session not in self.open:
            return
        for req_id, held in list(self.pending.items()):
            if held["session"] == session:
                self.settle(req_id, NEUTRAL, ("attention.resolved", {"resolution": "dismissed"}, req_id))
        self.close_run(session, "run.cancelled", {"by": "shutdown"})
        self.open.discard(session)
        if session not in self.ended:  # one session.ended per session, even when Claude Code resumed it
            self.ended.add(session)
            self.emit(session, "session.ended", {"reason": "normal"})

    def hold(self, session, body):
        tool = str(body.get("tool_name", ""))
        self.ensure_session(session)
        # Our own wording (AEP-0003 §9 leaves the prompt text to the emitter).
        event, _ = self.emit(session, "attention.requested",
                             {"kind": "permission", "prompt": "Claude Code would like to use %s. Allow it?" % tool,
                              "options": [{"id": "allow", "label": "Allow"}, {"id": "deny", "label": "Deny"}],
                              "respond_via": ["control"]},
                             capture="redacted", run=self.open_run(session), subject=tool)
        done = threading.Event()
        held = {"session": session, "tool": tool, "input": body.get("tool_input", {}), "digest": digest(body.get("tool_input", {})),
                "done": done, "reply": NEUTRAL, "call": None}
        self.pending[event["id"]] = held
        self.lock.release()
        try:
            answered = done.wait(self.hold_ms / 1000.0)
        finally:
            self.lock.acquire()
        if not answered and event["id"] in self.pending:
            # Fail open: the operator did not answer within the window.
            self.settle(event["id"], NEUTRAL, ("attention.timeout", {"after_ms": self.hold_ms}, None))
        return held["reply"]

    def settle(self, req_id, reply, follow):
        held = self.pending.pop(req_id, None)
        if held is None:
            return
        type_, data, cause = follow
        self.emit(held["session"], type_, data, capture="redacted", run=self.open_run(held["session"]), subject=req_id, cause=cause)
        held["reply"] = reply
        held["done"].set()

    # -- commands (AEP-0004) -----------------------------------------------------------------
    def on_command(self, cmd):
        if not isinstance(cmd, dict) or "aep" not in cmd or "id" not in cmd:
            return
        with self.lock:
            key = (cmd.get("source"), cmd.get("id"))
            if key in self.acks:
                self.relay.send(self.acks[key])  # a retransmit: the recorded ack, byte for byte
                return
            session = cmd.get("session")
            if cmd.get("type") not in ACCEPTS:
                self.ack(key, session, cmd, "control.rejected", {"reason": "unsupported"})
                return
            req_id = cmd.get("subject")
            held = self.pending.get(req_id)
            answer = (cmd.get("data") or {}).get("answer")
            if held is None or not isinstance(answer, dict) or "values" in answer:
                self.ack(key, session, cmd, "control.rejected", {"reason": "invalid"})
                return
            option = answer.get("option")
            text = answer.get("text")
            if option is None and isinstance(text, str) and text.strip().lower() in ("allow", "deny"):
                option = text.strip().lower()
            self.ack(key, session, cmd, "control.accepted", {})
            answered, _ = self.emit(held["session"], "attention.answered",
                                    {"answer": {"option": option} if option else {"text": text or ""}, "via": "control"},
                                    capture="redacted", run=self.open_run(held["session"]), subject=req_id, cause=cmd["id"])
            if option == "allow":
                decision = {"behavior": "allow"}
                if held["tool"] == "ExitPlanMode":
                    decision["updatedInput"] = held["input"]
            else:
                reason = text if (option is None and isinstance(text, str) and text.strip()) else "The operator said no."
                decision = {"behavior": "deny", "message": reason}
            reply = dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}})
            self.settle(req_id, reply, ("attention.resolved", {"resolution": "answered"}, answered["id"]))
            if decision["behavior"] == "deny":
                # The denied call will not run: close it (the one tool.requested of the same tool and arguments).
                for (s, call_id), (request_id, tool, args) in list(self.calls.items()):
                    if s == held["session"] and tool == held["tool"] and args == held["digest"]:
                        self.emit(s, "tool.denied", {"tool": {"name": tool, "call_id": call_id}, "by": "runtime"},
                                  run=self.open_run(s), cause=request_id)
                        self.calls.pop((s, call_id), None)
                        break

    def ack(self, key, session, cmd, type_, data):
        if BREAK == "no-ack":
            return None
        _, line = self.emit(session, type_, data, cause=cmd["id"])
        self.acks[key] = line
        return line


class Hooks(BaseHTTPRequestHandler):
    adapter = None

    def log_message(self, *args):
        pass

    def _answer(self, status, text):
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/healthz":
            self._answer(200, dumps({"ok": True, "relay": self.adapter.relay.ready}))
        else:
            self._answer(404, "{}")

    def do_POST(self):
        if not self.path.startswith("/hook/"):
            return self._answer(404, "{}")
        length = int(self.headers.get("content-length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self._answer(200, NEUTRAL)
        self._answer(200, self.adapter.hook(self.path[len("/hook/"):], body if isinstance(body, dict) else {}))


def main():
    parser = argparse.ArgumentParser(description="An AEP adapter for Claude Code (example)")
    parser.add_argument("--relay", default=os.environ.get("AEP_RELAY_URL", "http://127.0.0.1:8787"))
    parser.add_argument("--token", default=os.environ.get("AEP_TOKEN", ""))
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    hold_ms = int(os.environ.get("AEP_CLAUDE_CODE_HOLD_MS") or os.environ.get("AEP_ATTENTION_TIMEOUT_MS") or 55000)
    adapter = Adapter(args.relay, args.token, hold_ms)
    Hooks.adapter = adapter
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Hooks)
    server.daemon_threads = True
    adapter.relay.start()
    print("aep example adapter for claude-code on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
