;;; toolbelt.el --- Approve and watch the tool calls of a toolbelt gateway  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The toolbelt authors

;; Author: The toolbelt authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, processes
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.  It is released under the MIT
;; license, as the rest of toolbelt is.

;;; Commentary:

;; An Emacs client for `toolbelt serve', the HTTP gateway of toolbelt.
;;
;; `toolbelt-connect' follows the gateway's event stream.  Each call
;; the policy asks about pops up the *Agent Approval* buffer: the tool,
;; where in the conversation the agent made the call (when it says),
;; its parameters and a preview of its effect (a diff in `diff-mode'
;; colours, the exact command, the URL).  There, `y' approves, `n'
;; rejects with a message for the model, `a' approves this and every
;; later call the decision covers (the buffer says what that is), `s'
;; approves for the agent's session and `?' shows more.  A destructive
;; call (deleting files, `rm', a force push) is marked so in red, and
;; approving it asks `yes-or-no-p' first.
;;
;; What you approve is what runs: control characters (ANSI escapes, a
;; carriage return, backspaces), bidi overrides and invisible characters
;; in a call are shown escaped (\e, \r, <U+202E>), never obeyed.
;;
;; When a tool asks a question mid-call (an MCP server's elicitation),
;; the *Agent Question* buffer shows who asks, the message and the
;; form.  There, RET asks each field in the minibuffer and sends the
;; answer, `d' declines and `c' dismisses the question.
;;
;; `toolbelt-calls' lists the calls in flight with their status and
;; progress.  When a tool changes a file, a buffer visiting it without
;; unsaved edits is reverted.  `toolbelt-list-tools' lists the tools
;; and `toolbelt-call-tool' calls one.
;;
;; The token comes from `toolbelt-token', else from auth-source (an
;; entry for the gateway's host and port), else from the environment
;; variable TOOLBELT_GATEWAY_TOKEN.  An open gateway needs none.

;;; Code:

(require 'auth-source)
(require 'diff-mode)
(require 'json)
(require 'let-alist)
(require 'seq)
(require 'subr-x)
(require 'tabulated-list)
(require 'url)
(require 'url-http)

(defvar url-http-response-status)
(defvar url-http-end-of-headers)

(defgroup toolbelt nil
  "Approve and watch the tool calls of a toolbelt gateway."
  :group 'tools
  :prefix "toolbelt-")

(defcustom toolbelt-url "http://127.0.0.1:7077"
  "Address of the gateway, as `toolbelt serve' prints it."
  :type 'string)

(defcustom toolbelt-token nil
  "Token for the gateway, or nil to look it up.
When nil, the token comes from auth-source (host and port of
`toolbelt-url'), else from the environment variable
TOOLBELT_GATEWAY_TOKEN; an open gateway needs none."
  :type '(choice (const :tag "Look it up" nil) string))

(defcustom toolbelt-agent-id "emacs"
  "Agent id of the calls made with `toolbelt-call-tool'."
  :type 'string)

(defcustom toolbelt-run-id "emacs"
  "Run id of the calls made with `toolbelt-call-tool'."
  :type 'string)

(defcustom toolbelt-event-agents nil
  "Agent ids whose events to follow, or nil for every agent."
  :type '(repeat string))

(defcustom toolbelt-request-timeout 30
  "Seconds to wait for the gateway to answer a request."
  :type 'number)

(defcustom toolbelt-max-calls 200
  "How many calls `toolbelt-calls' keeps; the oldest go first."
  :type 'integer)

(defcustom toolbelt-event-functions nil
  "Functions called with each event: its type (a string) and its data.
The data is the event's JSON object as an alist."
  :type 'hook)

(define-error 'toolbelt-error "toolbelt" 'user-error)

;;;; JSON and HTTP

(defun toolbelt--json-read (text)
  "Parse the JSON TEXT: objects as alists, arrays as vectors."
  (let ((json-object-type 'alist)
        (json-array-type 'vector)
        (json-key-type 'symbol)
        (json-false :json-false)
        (json-null nil))
    (json-read-from-string text)))

(defun toolbelt--json-pretty (value)
  "Return VALUE as indented JSON text, to show (see `toolbelt--visible')."
  (let ((json-encoding-pretty-print t))
    (toolbelt--visible (json-encode value))))

;;;; What a person reads is what runs

(defconst toolbelt--escaped-ranges
  '((#x00 . #x08) (#x0b . #x1f) (#x7f . #x9f) (#xad . #xad) (#x34f . #x34f)
    (#x61c . #x61c) (#x115f . #x1160) (#x17b4 . #x17b5) (#x180b . #x180f)
    (#x200b . #x200f) (#x2028 . #x202e) (#x2060 . #x206f) (#x3164 . #x3164)
    (#xfe00 . #xfe0f) (#xfeff . #xfeff) (#xffa0 . #xffa0) (#xfff9 . #xfffb)
    (#x1d173 . #x1d17a) (#xe0000 . #xe007f) (#xe0100 . #xe01ef))
  "The characters `toolbelt--visible' shows escaped, as (FROM . TO) ranges.
The C0 controls but tab and newline, DEL, the C1 controls, and the
invisible or reordering format characters: zero-width ones, bidi marks,
embeddings, overrides and isolates, variation selectors, tag characters.
The same table as displayText of @toolbelt/core (display-text.ts).")

(defconst toolbelt--escaped-regexp
  (concat "["
          (mapconcat (lambda (range)
                       (if (= (car range) (cdr range))
                           (string (car range))
                         (string (car range) ?- (cdr range))))
                     toolbelt--escaped-ranges "")
          "]")
  "A regexp for one character of `toolbelt--escaped-ranges'.")

(defun toolbelt--escape-char (char)
  "Return how CHAR is shown: \\e, \\r, \\b, \\a, \\f, \\v, \\xNN or <U+XXXX>."
  (pcase char
    (?\a "\\a") (?\b "\\b") (?\v "\\v") (?\f "\\f") (?\r "\\r") (?\e "\\e")
    (_ (if (<= char #x7f) (format "\\x%02x" char) (format "<U+%04X>" char)))))

(defun toolbelt--visible (text)
  "Return TEXT with every control, bidi and invisible character made visible.
Newlines and tabs stay; the rest of `toolbelt--escaped-ranges' becomes
an escape (see `toolbelt--escape-char'), so nothing in TEXT can move the
cursor, hide or reorder what is read.  Only for display: what runs is
the call's own text.  TEXT that is not a string is returned as it is."
  (if (not (stringp text))
      text
    (let ((case-fold-search nil))
      (replace-regexp-in-string toolbelt--escaped-regexp
                                (lambda (match) (toolbelt--escape-char (aref match 0)))
                                text t t))))

(defun toolbelt--hidden-p (value)
  "Return non-nil if VALUE, a JSON value, has a string with characters to escape."
  (let ((case-fold-search nil))
    (cond ((stringp value) (string-match-p toolbelt--escaped-regexp value))
          ((symbolp value) (string-match-p toolbelt--escaped-regexp (symbol-name value)))
          ((consp value) (or (toolbelt--hidden-p (car value)) (toolbelt--hidden-p (cdr value))))
          ((vectorp value) (seq-some #'toolbelt--hidden-p value)))))

(defun toolbelt--base-url ()
  "Return `toolbelt-url' without a trailing slash."
  (string-trim-right toolbelt-url "/+"))

(defun toolbelt--auth-token ()
  "Return the token to send, or nil for an open gateway."
  (or toolbelt-token
      (let* ((url (url-generic-parse-url (toolbelt--base-url)))
             (found (car (auth-source-search :host (url-host url)
                                             :port (number-to-string (url-port url))
                                             :require '(:secret) :max 1)))
             (secret (plist-get found :secret)))
        (if (functionp secret) (funcall secret) secret))
      (let ((env (getenv "TOOLBELT_GATEWAY_TOKEN")))
        (and env (not (string-empty-p env)) env))))

(defun toolbelt--headers (json-body)
  "Return the request headers; with JSON-BODY non-nil, those of a JSON body."
  (let ((token (toolbelt--auth-token)))
    (append (and token (list (cons "Authorization" (encode-coding-string (concat "Bearer " token) 'utf-8))))
            (and json-body (list (cons "Content-Type" "application/json")))
            (list (cons "Accept" "application/json")))))

(defun toolbelt--read-response (&optional failure)
  "Read the gateway's answer in the current buffer, then kill the buffer.
Return a plist of :status (nil when there was no answer), :body (the
parsed JSON) and :failure (FAILURE, what went wrong on the way)."
  (let ((status (and (boundp 'url-http-response-status) url-http-response-status))
        body)
    (goto-char (if (and (boundp 'url-http-end-of-headers) (markerp url-http-end-of-headers))
                   url-http-end-of-headers
                 (point-min)))
    (when (or (looking-at "\r?\n") (re-search-forward "\r?\n\r?\n" nil t))
      (goto-char (match-end 0))
      (let ((text (decode-coding-string (buffer-substring-no-properties (point) (point-max)) 'utf-8)))
        (setq body (ignore-errors (toolbelt--json-read text)))))
    (kill-buffer)
    (list :status status :body body :failure failure)))

(defmacro toolbelt--with-request (method path body &rest forms)
  "Run FORMS with url.el set up for METHOD on PATH with the JSON text BODY.
FORMS see the request's address as `url'.  Every part of the request is
unibyte, as url.el needs to send a body that is not ASCII."
  (declare (indent 3) (debug t))
  `(let ((url-request-method ,method)
         (url-request-extra-headers (toolbelt--headers ,body))
         (url-request-data (and ,body (encode-coding-string ,body 'utf-8)))
         (url-show-status nil)
         (url (encode-coding-string (concat (toolbelt--base-url) ,path) 'utf-8)))
     ,@forms))

(defun toolbelt--request (method path &optional body)
  "Send METHOD to PATH with the JSON text BODY and wait for the answer.
Return the plist of `toolbelt--read-response'."
  (toolbelt--with-request method path body
    (let ((buffer (condition-case err
                      (url-retrieve-synchronously url t t toolbelt-request-timeout)
                    (error (signal 'toolbelt-error
                                   (list (format "Cannot reach %s: %s" url (error-message-string err))))))))
      (if buffer
          (with-current-buffer buffer (toolbelt--read-response))
        (list :status nil :failure "no answer in time")))))

(defun toolbelt--request-async (method path body callback)
  "Send METHOD to PATH with the JSON text BODY; call CALLBACK with the answer.
CALLBACK gets the plist of `toolbelt--read-response'."
  (toolbelt--with-request method path body
    (url-retrieve url
                  (lambda (status)
                    (funcall callback
                             (toolbelt--read-response
                              (let ((err (plist-get status :error)))
                                (and err (format "%s" (cdr err)))))))
                  nil t t)))

(defun toolbelt--check (response what &optional accept)
  "Return the body of RESPONSE, or signal `toolbelt-error' saying WHAT failed.
ACCEPT lists HTTP statuses besides those under 400 that carry an answer."
  (let ((status (plist-get response :status))
        (body (plist-get response :body)))
    (cond
     ((null status)
      (signal 'toolbelt-error
              (list (format "%s: no answer from %s (%s); is `toolbelt serve' running there?"
                            what (toolbelt--base-url)
                            (or (plist-get response :failure) "no response")))))
     ((or (< status 400) (memq status accept)) body)
     (t (signal 'toolbelt-error
                (list (format "%s: %s (HTTP %d)" what
                              (or (let-alist body .error.message) "the gateway refused")
                              status)))))))

;;;; The event stream

(defvar toolbelt--stream nil
  "The network process reading the event stream, or nil.")

(defvar toolbelt--wanted nil
  "Non-nil while the event stream should be kept open.")

(defvar toolbelt--connected nil
  "Non-nil once the stream has caught up (its `ready' event).")

(defvar toolbelt--last-event-id nil
  "Id of the last event received, sent as Last-Event-ID on reconnecting.")

(defvar toolbelt--retry-ms 1000
  "Milliseconds to wait before reconnecting, as the stream's `retry:' says.")

(defvar toolbelt--failures 0
  "Reconnections since the stream was last caught up, for the backoff.")

(defvar toolbelt--reconnect-timer nil
  "Timer of the next reconnection, or nil.")

(defvar toolbelt--refusal nil
  "Why the gateway refused the event stream last, or nil.")

(defvar toolbelt--agent-state nil
  "The last `agent.state' the gateway sent: \"tool_execution\" or \"idle\".")

(defun toolbelt--events-path (url)
  "Return the path and query of the event stream of the parsed URL."
  (concat (string-trim-right (car (url-path-and-query url)) "/+")
          "/api/events"
          (if toolbelt-event-agents
              (concat "?agentId=" (url-hexify-string (string-join toolbelt-event-agents ",")))
            "")))

(defun toolbelt--stream-request (url)
  "Return the HTTP request that opens the event stream of the parsed URL."
  (let ((token (toolbelt--auth-token))
        (host (url-host url)))
    (concat "GET " (toolbelt--events-path url) " HTTP/1.1\r\n"
            "Host: " (if (string-search ":" host) (format "[%s]" host) host)
            (format ":%d\r\n" (url-port url))
            "Accept: text/event-stream\r\nCache-Control: no-cache\r\n"
            (if token (format "Authorization: Bearer %s\r\n" token) "")
            (if toolbelt--last-event-id (format "Last-Event-ID: %s\r\n" toolbelt--last-event-id) "")
            "\r\n")))

(defun toolbelt--open-stream ()
  "Open the event stream and return its process."
  (let* ((url (url-generic-parse-url (toolbelt--base-url)))
         (proc (open-network-stream "toolbelt-events" nil (url-host url) (url-port url)
                                    :type (if (equal (url-type url) "https") 'tls 'plain)
                                    :coding 'binary)))
    (set-process-query-on-exit-flag proc nil)
    (process-put proc 'toolbelt-raw "")
    (process-put proc 'toolbelt-text "")
    (process-put proc 'toolbelt-chunk 'size)
    (process-put proc 'toolbelt-resumed (and toolbelt--last-event-id t))
    (set-process-filter proc #'toolbelt--stream-filter)
    (set-process-sentinel proc #'toolbelt--stream-sentinel)
    (process-send-string proc (toolbelt--stream-request url))
    proc))

(defun toolbelt--open ()
  "Open the event stream, or schedule another try when that fails."
  (setq toolbelt--reconnect-timer nil)
  (when toolbelt--wanted
    (condition-case err
        (setq toolbelt--stream (toolbelt--open-stream))
      (error
       (message "toolbelt: cannot reach %s (%s); trying again"
                (toolbelt--base-url) (error-message-string err))
       (toolbelt--schedule-reconnect)))))

(defun toolbelt--schedule-reconnect ()
  "Reconnect after the stream's retry delay, doubled for each failure in a row."
  (let ((delay (min 30.0 (* (/ toolbelt--retry-ms 1000.0) (expt 2 (min toolbelt--failures 5))))))
    (setq toolbelt--failures (1+ toolbelt--failures))
    (setq toolbelt--reconnect-timer (run-at-time delay nil #'toolbelt--open))))

(defun toolbelt--stream-sentinel (proc _event)
  "Reconnect when PROC, the event stream, closed while it was wanted."
  (when (and (not (process-live-p proc)) (eq proc toolbelt--stream))
    (setq toolbelt--stream nil
          toolbelt--connected nil)
    (toolbelt--refresh-calls)
    (when toolbelt--wanted
      (toolbelt--schedule-reconnect))))

(defun toolbelt--stream-filter (proc bytes)
  "Read BYTES of the event stream PROC: headers, then chunks, then events."
  (let ((raw (concat (process-get proc 'toolbelt-raw) bytes)))
    (unless (process-get proc 'toolbelt-status)
      (let ((end (string-search "\r\n\r\n" raw)))
        (when end
          (toolbelt--stream-headers proc (substring raw 0 end))
          (setq raw (substring raw (+ end 4))))))
    (when (process-get proc 'toolbelt-status)
      (setq raw (toolbelt--dechunk proc raw)))
    (process-put proc 'toolbelt-raw raw)
    (when (process-get proc 'toolbelt-status)
      (if (eql (process-get proc 'toolbelt-status) 200)
          (toolbelt--stream-events proc)
        (toolbelt--stream-refused proc)))))

(defun toolbelt--stream-headers (proc head)
  "Note the status and transfer encoding of PROC from its response HEAD."
  (process-put proc 'toolbelt-status
               (if (string-match "\\`HTTP/[0-9.]+ \\([0-9]+\\)" head)
                   (string-to-number (match-string 1 head))
                 0))
  (process-put proc 'toolbelt-chunked
               (let ((case-fold-search t))
                 (string-match-p "^transfer-encoding:[ \t]*chunked" head))))

(defun toolbelt--dechunk (proc raw)
  "Add the body bytes in RAW to PROC's text; return what is left unread."
  (if (not (process-get proc 'toolbelt-chunked))
      (progn (process-put proc 'toolbelt-text (concat (process-get proc 'toolbelt-text) raw)) "")
    (let ((state (process-get proc 'toolbelt-chunk))
          (text (process-get proc 'toolbelt-text))
          (more t))
      (while more
        (cond
         ((eq state 'size)
          (let ((eol (string-search "\r\n" raw)))
            (if (not eol)
                (setq more nil)
              (setq state (string-to-number (car (split-string (substring raw 0 eol) ";")) 16)
                    raw (substring raw (+ eol 2)))
              (when (eql state 0) (setq state 'end more nil)))))
         ((integerp state)
          (let ((n (min state (length raw))))
            (setq text (concat text (substring raw 0 n))
                  raw (substring raw n)
                  state (if (= n state) 'crlf (- state n)))
            (when (integerp state) (setq more nil))))
         ((and (eq state 'crlf) (>= (length raw) 2))
          (setq raw (substring raw 2) state 'size))
         (t (setq more nil))))
      (process-put proc 'toolbelt-chunk state)
      (process-put proc 'toolbelt-text text)
      raw)))

(defun toolbelt--stream-events (proc)
  "Handle each complete event in PROC's text."
  (let (end)
    (while (setq end (string-search "\n\n" (process-get proc 'toolbelt-text)))
      (let* ((text (process-get proc 'toolbelt-text))
             (block (decode-coding-string (substring text 0 end) 'utf-8)))
        (process-put proc 'toolbelt-text (substring text (+ end 2)))
        (toolbelt--stream-block proc block)))))

(defun toolbelt--stream-block (proc block)
  "Handle one BLOCK of the event stream PROC: an event, a retry or a comment."
  (let (id type data)
    (dolist (line (split-string block "\n"))
      (setq line (string-trim-right line "\r"))
      (when (string-match "\\`\\([a-zA-Z]+\\)\\(?:: ?\\(.*\\)\\)?\\'" line)
        (let ((field (match-string 1 line))
              (value (or (match-string 2 line) "")))
          (pcase field
            ("id" (setq id value))
            ("event" (setq type value))
            ("data" (setq data (if data (concat data "\n" value) value)))
            ("retry" (when (string-match-p "\\`[0-9]+\\'" value)
                       (setq toolbelt--retry-ms (string-to-number value))))))))
    (when id (setq toolbelt--last-event-id id))
    (when data
      (with-demoted-errors "toolbelt: cannot handle an event: %S"
        (toolbelt--handle-event proc (or type "message") (toolbelt--json-read data))))))

(defun toolbelt--stream-refused (proc)
  "Report why the gateway refused the event stream PROC, once its answer is read."
  (let ((body (ignore-errors
                (toolbelt--json-read (decode-coding-string (process-get proc 'toolbelt-text) 'utf-8)))))
    (when body
      (let ((status (process-get proc 'toolbelt-status)))
        ;; A refused token or address stays refused: stop instead of retrying.
        (when (memq status '(401 403 404))
          (setq toolbelt--wanted nil))
        (setq toolbelt--refusal (format "%s (HTTP %d)" (or (let-alist body .error.message) "no reason given") status))
        (message "toolbelt: the gateway refused the event stream: %s" toolbelt--refusal)
        (delete-process proc)))))

;;;; Events

(defun toolbelt--handle-event (proc type event)
  "Act on the event of TYPE with data EVENT, read from the stream PROC."
  (pcase type
    ("ready" (toolbelt--on-ready proc))
    ("error" (message "toolbelt: the gateway reports: %s" (alist-get 'message event)))
    ("approval.requested" (toolbelt--enqueue-approval (alist-get 'request event)))
    ("approval.resolved" (toolbelt--approval-settled (alist-get 'callId event)))
    ("input.requested" (toolbelt--enqueue-question (alist-get 'question event)))
    ((or "input.answered" "tool.result") (toolbelt--question-settled (alist-get 'callId event)))
    ("file.changed" (toolbelt--revert-file (alist-get 'path event)))
    ("agent.state" (setq toolbelt--agent-state (alist-get 'state event))))
  (when (alist-get 'callId event)
    (toolbelt--track-call type event))
  (run-hook-with-args 'toolbelt-event-functions type event))

(defun toolbelt--on-ready (proc)
  "The stream PROC has caught up: fetch what waited while it was away."
  (setq toolbelt--connected t
        toolbelt--failures 0
        toolbelt--refusal nil)
  ;; A resumed stream replayed what it missed; a fresh one asks for the calls waiting now.
  (unless (process-get proc 'toolbelt-resumed)
    (toolbelt--fetch-waiting-approvals)
    (toolbelt--fetch-waiting-questions))
  (toolbelt--refresh-calls))

(defun toolbelt--fetch-waiting-approvals ()
  "Queue each call already awaiting approval."
  (toolbelt--request-async
   "GET" "/api/tool-calls?status=awaiting_approval&limit=100" nil
   (lambda (response)
     (let ((calls (alist-get 'calls (plist-get response :body))))
       ;; Newest first in the answer: queue the oldest first.
       (seq-doseq (call (reverse calls))
         (let ((request (alist-get 'approval call)))
           (when (and request
                      (or (null toolbelt-event-agents)
                          (member (alist-get 'agentId call) toolbelt-event-agents)))
             (toolbelt--enqueue-approval request))))))))

(defun toolbelt--revert-file (path)
  "Revert the buffer visiting PATH unless it has unsaved edits."
  (let ((buffer (and (stringp path) (find-buffer-visiting path))))
    (when buffer
      (with-current-buffer buffer
        (cond
         ((buffer-modified-p)
          (message "toolbelt: %s changed on disk; its buffer has unsaved edits, so it was not reverted"
                   (abbreviate-file-name path)))
         ((file-exists-p path)
          (revert-buffer t t t))
         (t (message "toolbelt: %s was deleted or moved" (abbreviate-file-name path))))))))

;;;###autoload
(defun toolbelt-connect (&optional url)
  "Follow the event stream of the gateway at URL (default `toolbelt-url').
Calls that wait for approval pop up the *Agent Approval* buffer, and
tools' questions the *Agent Question* buffer."
  (interactive (list (and current-prefix-arg (read-string "Gateway URL: " toolbelt-url))))
  (when url (setq toolbelt-url url))
  (toolbelt-disconnect)
  (setq toolbelt--wanted t
        toolbelt--last-event-id nil
        toolbelt--failures 0)
  (toolbelt--open)
  (when toolbelt--stream
    (message "toolbelt: following %s" (toolbelt--base-url))))

(defun toolbelt-disconnect ()
  "Stop following the gateway's event stream."
  (interactive)
  (setq toolbelt--wanted nil
        toolbelt--connected nil)
  (when toolbelt--reconnect-timer
    (cancel-timer toolbelt--reconnect-timer)
    (setq toolbelt--reconnect-timer nil))
  (when toolbelt--stream
    (let ((proc toolbelt--stream))
      (setq toolbelt--stream nil)
      (delete-process proc))))

;;;; Approvals

(defvar toolbelt--approvals nil
  "Approval requests waiting for a decision here, oldest first.")

(defvar-local toolbelt--request nil
  "The approval request this buffer shows.")

(defconst toolbelt-approval-buffer "*Agent Approval*"
  "Name of the buffer that asks for approvals.")

(defvar toolbelt-approval-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map "y" #'toolbelt-approve)
    (define-key map "n" #'toolbelt-reject)
    (define-key map "a" #'toolbelt-approve-always)
    (define-key map "s" #'toolbelt-approve-session)
    (define-key map "?" #'toolbelt-approval-help)
    (define-key map "q" #'toolbelt-approval-later)
    map)
  "Keys of the approval buffer.")

(define-derived-mode toolbelt-approval-mode special-mode "Toolbelt-Approval"
  "Approve or reject one tool call.
\\{toolbelt-approval-mode-map}"
  ;; Left to right whatever the text holds: its bidi controls are shown escaped, and no
  ;; right-to-left word makes the paragraph change direction.
  (setq bidi-paragraph-direction 'left-to-right)
  (setq header-line-format '(:eval (toolbelt--approval-header))))

(defun toolbelt--approval-header ()
  "Return the header line of the approval buffer."
  (let ((n (length toolbelt--approvals)))
    (format " %s waits for approval%s  —  y approve  n reject  a always  ? help"
            (string-replace "%" "%%" (toolbelt--visible (or (alist-get 'tool toolbelt--request) "A call")))
            (if (> n 1) (format " (%d more queued)" (1- n)) ""))))

(defun toolbelt--enqueue-approval (request)
  "Queue REQUEST, an approval request, and show it if nothing else is shown."
  (let ((id (alist-get 'callId request)))
    (when (and id (not (toolbelt--queued id)))
      (setq toolbelt--approvals (append toolbelt--approvals (list request)))
      (toolbelt--show-approval))))

(defun toolbelt--queued (call-id)
  "Return the queued request of CALL-ID, or nil."
  (seq-find (lambda (r) (equal (alist-get 'callId r) call-id)) toolbelt--approvals))

(defun toolbelt--approval-settled (call-id)
  "Drop CALL-ID from the queue: it was decided, here or elsewhere."
  (when (toolbelt--queued call-id)
    (setq toolbelt--approvals
          (seq-remove (lambda (r) (equal (alist-get 'callId r) call-id)) toolbelt--approvals))
    (toolbelt--show-approval)))

(defun toolbelt--show-approval ()
  "Show the oldest queued request, or put the approval buffer away."
  (let ((request (car toolbelt--approvals))
        (buffer (get-buffer toolbelt-approval-buffer)))
    (cond
     (request
      (setq buffer (get-buffer-create toolbelt-approval-buffer))
      (unless (equal (alist-get 'callId (buffer-local-value 'toolbelt--request buffer))
                     (alist-get 'callId request))
        (with-current-buffer buffer (toolbelt--render-approval request))
        (pop-to-buffer buffer))
      (force-mode-line-update t))
     (buffer
      (with-current-buffer buffer
        (let ((inhibit-read-only t)) (erase-buffer))
        (setq toolbelt--request nil))
      (dolist (window (get-buffer-window-list buffer nil t))
        (quit-window nil window))))))

(defun toolbelt--describe-remember (target)
  "Say what an \"always\" approval of TARGET covers, escaped to show."
  (toolbelt--visible
   (let-alist target
     (pcase .kind
       ("tool" (format "every %s call" .tool))
       ("prefix" (format "%s commands starting with `%s'" .tool .prefix))
       ("exact" (format "%s running exactly `%s'" .tool .command))
       ("path" (format "%s on %s" .tool .path))
       (_ (format "%s calls like this one" .tool))))))

(defun toolbelt--fontify-diff (diff)
  "Return DIFF with the faces `diff-mode' gives it."
  (with-temp-buffer
    (insert diff)
    (delay-mode-hooks (diff-mode))
    (font-lock-ensure)
    ;; As `font-lock-face', the colours survive font-lock in the buffer they are shown in.
    (let ((pos (point-min)))
      (while (< pos (point-max))
        (let ((next (next-single-property-change pos 'face nil (point-max)))
              (face (get-text-property pos 'face)))
          (when face (put-text-property pos next 'font-lock-face face))
          (setq pos next))))
    (buffer-string)))

(defun toolbelt--insert-preview (preview)
  "Insert PREVIEW, the effect a call would have, its text made visible.
A diff is escaped before `diff-mode' reads it, line by line as it is."
  (let-alist preview
    (pcase .kind
      ("diff" (insert (toolbelt--fontify-diff (toolbelt--visible .diff))))
      ("command" (insert (toolbelt--visible
                          (concat "$ " .command "\n  in " .cwd
                                  (if .classification (format " (%s)" .classification) "") "\n"))))
      ("url" (insert (toolbelt--visible (concat (or .method "GET") " " .url "\n"))))
      (_ (insert (toolbelt--visible (or .text "")) "\n")))))

(defun toolbelt--heading (text)
  "Insert TEXT as a heading of the approval buffer."
  (insert "\n" (propertize text 'font-lock-face 'bold) "\n"))

(defun toolbelt--field (name value &optional face)
  "Insert a line with NAME and VALUE, the value in FACE and made visible."
  (when value
    (let ((shown (toolbelt--visible (format "%s" value))))
      (insert (propertize (format "%-9s" (concat name ":")) 'font-lock-face 'bold)
              (if face (propertize shown 'font-lock-face face) shown)
              "\n"))))

(defun toolbelt--context (request)
  "Return the context REQUEST carries, cleaned for display, or nil.
That is where in the conversation the agent made the call, in its own
words.  Its control, bidi and invisible characters are shown escaped
\(see `toolbelt--visible'), so none can hide or reorder text."
  (let ((context (alist-get 'context request)))
    (when (stringp context)
      (setq context (toolbelt--visible (string-trim (replace-regexp-in-string "\t" " " context))))
      (unless (string-empty-p context) context))))

(defun toolbelt--fill (text indent)
  "Return TEXT filled to `fill-column', its lines after the first INDENT wide.
Each line of TEXT is filled on its own, so its line breaks stay."
  (let ((width fill-column))
    (with-temp-buffer
      (setq fill-column width)
      (insert text)
      (let ((fill-prefix (make-string indent ?\s))
            (pos (point-min)))
        (while (< pos (point-max))
          (goto-char pos)
          (let ((end (copy-marker (line-end-position))))
            (unless (= pos (point-min)) (insert fill-prefix))
            (fill-region-as-paragraph (point) end)
            (goto-char end)
            (set-marker end nil)
            (setq pos (if (eobp) (point-max) (1+ (point)))))))
      (buffer-string))))

(defun toolbelt--destructive (request)
  "Return what REQUEST would destroy if its effect is destructive, else nil.
That is the command's classification, else the reason for asking."
  (when (equal (alist-get 'effect request) "destructive")
    (let* ((preview (alist-get 'preview request))
           (what (or (and (equal (alist-get 'kind preview) "command")
                          (alist-get 'classification preview))
                     (alist-get 'reason request))))
      ;; A classification may say "destructive: rm -r sub/": the warning says that word already.
      (setq what (and (stringp what)
                      (string-remove-suffix "." (string-remove-prefix "destructive: " (string-trim what)))))
      (toolbelt--visible
       (if (and what (not (string-empty-p what)))
           what
         (format "%s says it is destructive" (alist-get 'tool request)))))))

(defun toolbelt--confirm-approval (request)
  "Return non-nil if REQUEST may be approved now.
A destructive call needs a `yes-or-no-p' on top of the key."
  (let ((what (toolbelt--destructive request)))
    (or (not what)
        (yes-or-no-p (format "This call is destructive: %s.  Run it? " what)))))

(defun toolbelt--render-approval (request)
  "Fill the current buffer with REQUEST and its choices."
  (let ((inhibit-read-only t))
    (toolbelt-approval-mode)
    (erase-buffer)
    (setq toolbelt--request request)
    (let-alist request
      (insert (propertize "Tool approval request" 'font-lock-face 'bold) "\n\n")
      (let ((what (toolbelt--destructive request)))
        (when what
          (insert (propertize (concat "DESTRUCTIVE: " what) 'font-lock-face 'error) "\n"
                  (propertize "Approving asks you to confirm with \"yes\"." 'font-lock-face 'error)
                  "\n\n")))
      (toolbelt--field "Tool" (if .title (format "%s (%s)" .tool .title) .tool))
      (toolbelt--field "Effect" .effect (if (member .effect '("execute" "destructive")) 'warning nil))
      (toolbelt--field "Reason" .reason)
      (toolbelt--field "Agent" (format "%s, run %s, call %s" .agentId .runId .callId))
      (seq-doseq (warning .warnings) (toolbelt--field "Warning" warning 'warning))
      (when (toolbelt--hidden-p request)
        (toolbelt--field "Warning" (concat "This call holds control, bidi or invisible characters; "
                                           "they are shown escaped (\\e, \\r, <U+202E>...): "
                                           "what you see is what runs")
                         'warning))
      (let ((context (toolbelt--context request)))
        (when context
          ;; Where in the conversation the call was made: after who asks, before what it does.
          (toolbelt--field "Context" (substring (toolbelt--fill (concat (make-string 9 ?\s) context) 9) 9))))
      (toolbelt--heading "Parameters")
      (insert (toolbelt--json-pretty .input) "\n")
      (when .preview
        (toolbelt--heading (if (equal (let-alist .preview .kind) "diff")
                               (format "Preview of changes to %s" (toolbelt--visible (let-alist .preview .path)))
                             "Preview"))
        (toolbelt--insert-preview .preview))
      (toolbelt--heading "Actions")
      (insert "y  approve this call\n"
              "n  reject it, with a message for the model\n"
              (format "a  always approve %s\n" (toolbelt--describe-remember .remember))
              (format "s  approve %s for the rest of session %s\n"
                      (toolbelt--describe-remember .remember) (toolbelt--visible .sessionId))
              "?  more information\n"
              "q  decide later\n"))
    (goto-char (point-min))))

(defun toolbelt--current-request ()
  "Return the request on display for approval, or signal that there is none."
  (or (and (derived-mode-p 'toolbelt-approval-mode) toolbelt--request)
      (car toolbelt--approvals)
      (signal 'toolbelt-error (list "No call is waiting for approval"))))

(defun toolbelt--decide (verb body done)
  "Send the decision VERB with the JSON text BODY.
DONE is the message to show after it, a format for the tool's name.
Approving a destructive call asks for confirmation first; without it
nothing is sent and the call keeps waiting."
  (let* ((request (toolbelt--current-request))
         (id (alist-get 'callId request)))
    (if (and (equal verb "approve") (not (toolbelt--confirm-approval request)))
        (message "toolbelt: %s not approved; it still waits (n rejects it)" (alist-get 'tool request))
      (let ((response (toolbelt--request "POST" (format "/api/tool-calls/%s/%s" (url-hexify-string id) verb) body)))
        (if (memq (plist-get response :status) '(404 409))
            (message "toolbelt: %s (%s) was already decided elsewhere" (alist-get 'tool request) id)
          (toolbelt--check response (format "Sending the decision on %s" id))
          (message (concat "toolbelt: " done) (alist-get 'tool request))))
      (toolbelt--approval-settled id))))

(defun toolbelt-approve ()
  "Approve the call shown, this once."
  (interactive)
  (toolbelt--decide "approve" "{\"scope\":\"once\"}" "approved %s"))

(defun toolbelt-approve-session ()
  "Approve the call shown and what it covers for the rest of its session."
  (interactive)
  (let ((covers (toolbelt--describe-remember (alist-get 'remember (toolbelt--current-request)))))
    (toolbelt--decide "approve" "{\"scope\":\"session\"}"
                      (concat "approved %s, and " (string-replace "%" "%%" covers) " for this session"))))

(defun toolbelt-approve-always ()
  "Approve the call shown and, from now on, every call its decision covers.
The approval buffer says what that is; the gateway keeps the rule."
  (interactive)
  (let ((covers (toolbelt--describe-remember (alist-get 'remember (toolbelt--current-request)))))
    (toolbelt--decide "approve" "{\"scope\":\"always\"}"
                      (concat "approved %s, and from now on " (string-replace "%" "%%" covers)))))

(defun toolbelt-reject (message)
  "Reject the call shown; MESSAGE, if not empty, reaches the model."
  (interactive (list (read-string "Reject; message for the model (RET for none): ")))
  (toolbelt--decide "reject"
                    (if (string-empty-p (or message ""))
                        "{}"
                      (json-encode (list (cons 'message message))))
                    "rejected %s"))

(defun toolbelt-approval-later ()
  "Put the approval buffer away, leaving the call waiting.
\\[toolbelt-approvals] brings it back."
  (interactive)
  (quit-window))

;;;###autoload
(defun toolbelt-approvals ()
  "Show the oldest call waiting for approval."
  (interactive)
  (unless toolbelt--approvals
    (signal 'toolbelt-error (list "No call is waiting for approval")))
  (let ((buffer (get-buffer-create toolbelt-approval-buffer)))
    (with-current-buffer buffer
      (unless (equal toolbelt--request (car toolbelt--approvals))
        (toolbelt--render-approval (car toolbelt--approvals))))
    (pop-to-buffer buffer)))

(defun toolbelt-approval-help ()
  "Explain the call shown and the choices."
  (interactive)
  (let ((request (toolbelt--current-request)))
    (with-help-window "*toolbelt help*"
      (let-alist request
        (princ (toolbelt--visible (format "%s\n\n%s\n\n" .tool .description)))
        (princ (toolbelt--visible (format "Why you are asked: %s\n\n" .reason)))
        (let ((context (toolbelt--context request)))
          (when context
            (princ (concat (toolbelt--fill (concat "Context (where in the conversation the agent made this call, in its own words): " context) 2)
                           "\n\n"))))
        (let ((what (toolbelt--destructive request)))
          (when what
            (princ (format "DESTRUCTIVE: %s.\nApproving (y, s or a) asks you to type \"yes\" first.\n\n" what))))
        (princ "y  approve this call once.\n")
        (princ "n  reject it; what you type is sent to the model as the reason.\n")
        (princ (format "a  approve it, and from now on %s, without asking.\n   The gateway keeps this rule across restarts.\n"
                       (toolbelt--describe-remember .remember)))
        (princ (format "s  approve it, and %s until session %s ends.\n"
                       (toolbelt--describe-remember .remember) (toolbelt--visible .sessionId)))
        (princ "q  decide later: M-x toolbelt-approvals shows it again.\n\n")
        (princ (format "The request as the gateway sent it:\n\n%s\n" (toolbelt--json-pretty request)))))))

;;;; Questions

;; A tool may ask a person something mid-call (an MCP server's
;; elicitation): the call waits, `awaiting_input', until it is answered
;; with values for a flat form, declined or dismissed.

(defvar toolbelt--questions nil
  "Questions of tools waiting for an answer here, oldest first.")

(defvar-local toolbelt--question nil
  "The question this buffer shows.")

(defconst toolbelt-question-buffer "*Agent Question*"
  "Name of the buffer that shows the questions of tools.")

(defvar toolbelt-question-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'toolbelt-answer-question)
    (define-key map "y" #'toolbelt-answer-question)
    (define-key map "d" #'toolbelt-decline-question)
    (define-key map "c" #'toolbelt-cancel-question)
    (define-key map "?" #'toolbelt-question-help)
    (define-key map "q" #'toolbelt-question-later)
    map)
  "Keys of the question buffer.")

(define-derived-mode toolbelt-question-mode special-mode "Toolbelt-Question"
  "Answer, decline or dismiss the question of a tool.
\\{toolbelt-question-mode-map}"
  ;; Left to right whatever the text holds: its bidi controls are shown escaped, and no
  ;; right-to-left word makes the paragraph change direction.
  (setq bidi-paragraph-direction 'left-to-right)
  (setq header-line-format '(:eval (toolbelt--question-header))))

(defun toolbelt--question-header ()
  "Return the header line of the question buffer."
  (let ((n (length toolbelt--questions)))
    (format " %s asks%s  —  RET answer  d decline  c dismiss  ? help"
            (string-replace "%" "%%" (toolbelt--visible (or (alist-get 'tool toolbelt--question) "A tool")))
            (if (> n 1) (format " (%d more queued)" (1- n)) ""))))

(defun toolbelt--question-queued (call-id)
  "Return the queued question of CALL-ID, or nil."
  (seq-find (lambda (q) (equal (alist-get 'callId q) call-id)) toolbelt--questions))

(defun toolbelt--enqueue-question (question)
  "Queue QUESTION and show it if no other question is shown."
  (let ((id (alist-get 'callId question)))
    (when (and id (not (toolbelt--question-queued id)))
      (setq toolbelt--questions (append toolbelt--questions (list question)))
      (toolbelt--show-question))))

(defun toolbelt--question-settled (call-id)
  "Drop CALL-ID's question: it was answered, here or elsewhere, or the call ended."
  (when (toolbelt--question-queued call-id)
    (setq toolbelt--questions
          (seq-remove (lambda (q) (equal (alist-get 'callId q) call-id)) toolbelt--questions))
    (toolbelt--show-question)))

(defun toolbelt--show-question ()
  "Show the oldest queued question, or put the question buffer away."
  (let ((question (car toolbelt--questions))
        (buffer (get-buffer toolbelt-question-buffer)))
    (cond
     (question
      (setq buffer (get-buffer-create toolbelt-question-buffer))
      (unless (equal (alist-get 'callId (buffer-local-value 'toolbelt--question buffer))
                     (alist-get 'callId question))
        (with-current-buffer buffer (toolbelt--render-question question))
        (pop-to-buffer buffer))
      (force-mode-line-update t))
     (buffer
      (with-current-buffer buffer
        (let ((inhibit-read-only t)) (erase-buffer))
        (setq toolbelt--question nil))
      (dolist (window (get-buffer-window-list buffer nil t))
        (quit-window nil window))))))

(defun toolbelt--fetch-waiting-questions ()
  "Queue the question of each call already awaiting input."
  (toolbelt--request-async
   "GET" "/api/tool-calls?status=awaiting_input&limit=100" nil
   (lambda (response)
     ;; Newest first in the answer: queue the oldest first.
     (seq-doseq (call (reverse (alist-get 'calls (plist-get response :body))))
       (let ((question (alist-get 'question call)))
         (when (and question
                    (or (null toolbelt-event-agents)
                        (member (alist-get 'agentId call) toolbelt-event-agents)))
           ;; Missed while away, so the call list has not seen it either.
           (toolbelt--track-call "input.requested" `((ts . ,(alist-get 'updatedAt call)) ,@question))
           (toolbelt--enqueue-question question)))))))

(defun toolbelt--field-choices (field)
  "Return the choices of FIELD as (TITLE . VALUE) pairs, or nil for free input.
Each TITLE is made visible (`toolbelt--visible'); its VALUE stays as sent."
  (let-alist field
    (let ((options (or .enum .oneOf .items.enum .items.anyOf)))
      (mapcar (lambda (option)
                (if (consp option)
                    (cons (toolbelt--visible (format "%s" (or (alist-get 'title option) (alist-get 'const option))))
                          (alist-get 'const option))
                  (cons (toolbelt--visible (format "%s" option)) option)))
              options))))

(defun toolbelt--field-kind (field)
  "Say what FIELD takes, in words."
  (let ((choices (mapconcat #'car (toolbelt--field-choices field) ", ")))
    (pcase (alist-get 'type field)
      ("integer" "a whole number")
      ("number" "a number")
      ("boolean" "yes or no")
      ("array" (if (string-empty-p choices) "a list of text" (concat "any of " choices)))
      (_ (if (string-empty-p choices) "text" (concat "one of " choices))))))

(defun toolbelt--field-title (name field)
  "Return the title of the field NAME with schema FIELD."
  (let ((title (alist-get 'title field)))
    (toolbelt--visible (if title (format "%s (%s)" title name) (format "%s" name)))))

(defun toolbelt--field-required-p (name schema)
  "Return non-nil if the field NAME is required by SCHEMA."
  (seq-contains-p (alist-get 'required schema) (symbol-name name)))

(defun toolbelt--describe-field (name field schema)
  "Describe the field NAME with schema FIELD of the form SCHEMA, in one line."
  (let ((default (assq 'default field)))
    (concat (toolbelt--field-title name field) ": " (toolbelt--field-kind field)
            (if (toolbelt--field-required-p name schema) ", required" "")
            (if default (format ", default %s" (json-encode (cdr default))) "")
            (if (alist-get 'description field) (format "\n      %s" (toolbelt--visible (alist-get 'description field))) ""))))

(defun toolbelt--render-question (question)
  "Fill the current buffer with QUESTION, its form and the choices."
  (let ((inhibit-read-only t))
    (toolbelt-question-mode)
    (erase-buffer)
    (setq toolbelt--question question)
    (let-alist question
      (insert (propertize (toolbelt--visible (format "Question from %s" (or .source "a tool"))) 'font-lock-face 'bold) "\n\n")
      (toolbelt--field "Tool" .tool)
      (toolbelt--field "Agent" (format "%s, run %s, call %s" (or .agentId "-") (or .runId "-") .callId))
      (insert "\n" (toolbelt--visible (or .message "")) "\n")
      (toolbelt--heading "Fields")
      (dolist (entry .schema.properties)
        (insert "  " (toolbelt--describe-field (car entry) (cdr entry) .schema) "\n"))
      (toolbelt--heading "Actions")
      (insert "RET, y  answer: each field is asked in the minibuffer; RET alone keeps\n"
              "        the default, or leaves an optional field out\n"
              "d       decline to answer\n"
              "c       dismiss the question (cancel)\n"
              "?       more information\n"
              "q       answer later\n"))
    (goto-char (point-min))))

(defun toolbelt--question-refused (question why)
  "Say WHY the gateway refused the answer to QUESTION, which stays open."
  (let ((buffer (get-buffer toolbelt-question-buffer)))
    (when (and buffer (equal (alist-get 'callId (buffer-local-value 'toolbelt--question buffer))
                             (alist-get 'callId question)))
      (with-current-buffer buffer
        (toolbelt--render-question question)
        (let ((inhibit-read-only t))
          (insert (propertize (format "Refused: %s\n\n" why) 'font-lock-face 'error))))))
  (message "toolbelt: %s; the question stays open" why))

(defun toolbelt--current-question ()
  "Return the question on display, or signal that there is none."
  (or (and (derived-mode-p 'toolbelt-question-mode) toolbelt--question)
      (car toolbelt--questions)
      (signal 'toolbelt-error (list "No tool is waiting for an answer"))))

(defun toolbelt--answer (question body done)
  "Send the answer BODY, JSON text, to QUESTION.
DONE is the message to show after it, a format for the tool's name.
A refused answer leaves the question open and says why."
  (let* ((id (alist-get 'callId question))
         (response (toolbelt--request "POST" (format "/api/tool-calls/%s/answer" (url-hexify-string id)) body))
         (status (plist-get response :status)))
    (cond
     ((memq status '(404 409))
      (message "toolbelt: the question of %s (%s) was already answered elsewhere" (alist-get 'tool question) id)
      (toolbelt--question-settled id))
     ((eql status 400)
      (toolbelt--question-refused
       question (or (let-alist (plist-get response :body) .error.message) "the answer does not fit")))
     (t
      (toolbelt--check response (format "Answering the question of %s" id))
      (message (concat "toolbelt: " done) (alist-get 'tool question))
      (toolbelt--question-settled id)))))

(defun toolbelt--answer-body (content)
  "Return the JSON text accepting the question with CONTENT, an alist."
  (format "{\"action\":\"accept\",\"content\":%s}" (if content (json-encode content) "{}")))

(defun toolbelt-answer-question (content &optional question)
  "Answer QUESTION (default: the one shown) with CONTENT, an alist of values.
Interactively, each field is read in the minibuffer."
  ;; The question is taken before reading: another may be shown by the time the reading ends.
  (interactive (let ((question (toolbelt--current-question)))
                 (list (toolbelt--read-answer (alist-get 'schema question)) question)))
  (toolbelt--answer (or question (toolbelt--current-question))
                    (toolbelt--answer-body content) "answered the question of %s"))

(defun toolbelt-decline-question ()
  "Decline to answer the question shown; the tool is told so."
  (interactive)
  (toolbelt--answer (toolbelt--current-question) "{\"action\":\"decline\"}" "declined the question of %s"))

(defun toolbelt-cancel-question ()
  "Dismiss the question shown without declining it: the tool sees a cancel."
  (interactive)
  (toolbelt--answer (toolbelt--current-question) "{\"action\":\"cancel\"}" "dismissed the question of %s"))

(defun toolbelt-question-later ()
  "Put the question buffer away, leaving the call waiting.
\\[toolbelt-questions] brings it back."
  (interactive)
  (quit-window))

;;;###autoload
(defun toolbelt-questions ()
  "Show the oldest question of a tool waiting for an answer."
  (interactive)
  (unless toolbelt--questions
    (signal 'toolbelt-error (list "No tool is waiting for an answer")))
  (let ((buffer (get-buffer-create toolbelt-question-buffer)))
    (with-current-buffer buffer
      (unless (equal toolbelt--question (car toolbelt--questions))
        (toolbelt--render-question (car toolbelt--questions))))
    (pop-to-buffer buffer)))

(defun toolbelt-question-help ()
  "Explain the question shown, its fields and the choices."
  (interactive)
  (let ((question (toolbelt--current-question)))
    (with-help-window "*toolbelt help*"
      (let-alist question
        (princ (toolbelt--visible (format "%s asks, during a call of %s:\n\n%s\n\n" .source .tool .message)))
        (princ "RET or y  answer: each field is read in the minibuffer.  RET alone keeps\n")
        (princ "          the default, or leaves an optional field out.\n")
        (princ "d         decline: the tool learns you chose not to answer.\n")
        (princ "c         dismiss: the tool learns the question was cancelled.\n")
        (princ "q         answer later: M-x toolbelt-questions shows it again.\n\n")
        (princ (format "The question as the gateway sent it:\n\n%s\n" (toolbelt--json-pretty question)))))))

;;;;; Reading an answer

(defun toolbelt--read-answer (schema)
  "Read a value for each field of SCHEMA; return them as an alist.
Fields left empty are left out, so the gateway fills in their defaults."
  (let (content)
    (dolist (entry (alist-get 'properties schema))
      (let ((value (toolbelt--read-field (car entry) (cdr entry)
                                         (toolbelt--field-required-p (car entry) schema))))
        (unless (eq value 'toolbelt--none)
          (push (cons (car entry) value) content))))
    (nreverse content)))

(defun toolbelt--field-prompt (name field required)
  "Return the prompt for the field NAME with schema FIELD, REQUIRED or not."
  (let ((default (assq 'default field)))
    (format "%s%s: " (toolbelt--field-title name field)
            (cond (default (format " (default %s)" (json-encode (cdr default))))
                  (required "")
                  (t " (optional)")))))

(defun toolbelt--read-field (name field required)
  "Read a value for the field NAME with schema FIELD, REQUIRED or not.
Return `toolbelt--none' when it is left empty, to keep its default."
  (let* ((prompt (toolbelt--field-prompt name field required))
         (choices (toolbelt--field-choices field))
         ;; Left empty, a field with a default takes it, so only one without must be given.
         (required (and required (not (assq 'default field)))))
    (pcase (alist-get 'type field)
      ("boolean" (if (y-or-n-p prompt) t :json-false))
      ((or "integer" "number") (toolbelt--read-number-field prompt field required))
      ("array" (toolbelt--read-list-field prompt choices required))
      (_ (toolbelt--read-text-field prompt choices required)))))

(defun toolbelt--again (why)
  "Refuse the input just read, saying WHY; the field is asked again."
  (throw 'toolbelt--again why))

(defun toolbelt--read-until (read check required)
  "Call READ until it gives an answer that CHECK accepts; return the value.
READ returns a string; CHECK returns the value for it, or calls
`toolbelt--again'.  Empty input gives `toolbelt--none', unless the
field is REQUIRED, when it is asked again."
  (let (value done)
    (while (not done)
      (let* ((text (string-trim (funcall read)))
             (why (catch 'toolbelt--again
                    (setq value (cond ((not (string-empty-p text)) (funcall check text))
                                      (required (toolbelt--again "this field is required"))
                                      (t 'toolbelt--none)))
                    nil)))
        (if why
            (message "toolbelt: %s; try again" why)
          (setq done t))))
    value))

(defun toolbelt--read-text-field (prompt choices required)
  "Read text with PROMPT, one of CHOICES if any; REQUIRED or not."
  (toolbelt--read-until
   (lambda () (if choices
                  (completing-read prompt choices nil t)
                (read-string prompt)))
   (lambda (text)
     (cond ((not choices) text)
           ((assoc text choices) (cdr (assoc text choices)))
           (t (toolbelt--again (format "%s is not among %s" text (mapconcat #'car choices ", "))))))
   required))

(defun toolbelt--read-number-field (prompt field required)
  "Read a number with PROMPT for FIELD, REQUIRED or not.
Whole numbers only when FIELD is an integer: the gateway refuses others."
  (let ((integer (equal (alist-get 'type field) "integer")))
    (toolbelt--read-until
     (lambda () (read-string prompt))
     (lambda (text)
       (cond ((string-match-p "\\`-?[0-9]+\\'" text) (string-to-number text))
             (integer (toolbelt--again (format "%s is not a whole number" text)))
             ((string-match-p "\\`-?[0-9]*\\.?[0-9]+\\(?:[eE][-+]?[0-9]+\\)?\\'" text) (string-to-number text))
             (t (toolbelt--again (format "%s is not a number" text)))))
     required)))

(defun toolbelt--read-list-field (prompt choices required)
  "Read a list of text with PROMPT, each among CHOICES if any; REQUIRED or not."
  (toolbelt--read-until
   (lambda () (string-join (completing-read-multiple prompt choices) ","))
   (lambda (text)
     (let* ((items (split-string text "," t "[ \t]+"))
            (bad (and choices (seq-remove (lambda (i) (assoc i choices)) items))))
       (if bad
           (toolbelt--again (format "%s not among %s" (string-join bad ", ") (mapconcat #'car choices ", ")))
         (vconcat (mapcar (lambda (i) (if choices (cdr (assoc i choices)) i)) items)))))
   required))

;;;; Live calls

(defvar toolbelt--calls (make-hash-table :test #'equal)
  "Calls seen on the event stream, by call id: plists.")

(defvar toolbelt--call-order nil
  "Call ids, newest first.")

(defconst toolbelt-calls-buffer "*toolbelt*"
  "Name of the buffer listing live calls.")

(defun toolbelt--call-status (type event)
  "Return the status a call takes from the event of TYPE with data EVENT, or nil."
  (let-alist event
    (pcase type
      ("tool.call" (if (eq .requiresApproval t) "asking" "called"))
      ("approval.requested" "awaiting approval")
      ("approval.resolved" (if (equal .decision.outcome "approve") "approved" "rejected"))
      ("input.requested" "awaiting input")
      ;; The call runs on with the answer; the tool decides what a decline means.
      ("input.answered" (pcase .action
                          ("accept" "running (answered)")
                          ("decline" "running (declined)")
                          (_ "running (dismissed)")))
      ("tool.started" (if (> (or .attempt 1) 1) (format "running (attempt %d)" .attempt) "running"))
      ("tool.result" (if .result.error.code
                         (format "%s: %s" .result.status .result.error.code)
                       .result.status))
      ("pending.created" "waiting for its result")
      ("pending.resolved" "resolved")
      ("pending.expired" "expired"))))

(defun toolbelt--call-progress (type event)
  "Return the progress text of the event of TYPE with data EVENT, or nil."
  (let-alist event
    (pcase type
      ("tool.progress"
       (string-join (delq nil (list (cond ((and .progress .total) (format "%s/%s" .progress .total))
                                          (.progress (format "%s" .progress)))
                                    .message))
                    " "))
      ("tool.output"
       (car (last (split-string (string-trim-right (or .chunk "")) "\n")))))))

(defun toolbelt--track-call (type event)
  "Update the call list with the event of TYPE with data EVENT."
  (let* ((id (alist-get 'callId event))
         (call (gethash id toolbelt--calls))
         (status (toolbelt--call-status type event))
         (progress (toolbelt--call-progress type event)))
    (unless call
      (push id toolbelt--call-order)
      (setq call (list :id id :tool (alist-get 'tool event) :agent (alist-get 'agentId event)
                       :status "seen" :progress "" :ts (alist-get 'ts event))))
    (when status (setq call (plist-put call :status status)))
    (when progress (setq call (plist-put call :progress progress)))
    (when (equal type "tool.result")
      (setq call (plist-put call :result (alist-get 'result event))))
    (puthash id call toolbelt--calls)
    (toolbelt--prune-calls)
    (toolbelt--refresh-calls)))

(defun toolbelt--prune-calls ()
  "Forget the oldest entries of the call list beyond `toolbelt-max-calls'."
  (when (> (length toolbelt--call-order) toolbelt-max-calls)
    (dolist (id (nthcdr toolbelt-max-calls toolbelt--call-order))
      (remhash id toolbelt--calls))
    (setq toolbelt--call-order (seq-take toolbelt--call-order toolbelt-max-calls))))

(defun toolbelt-call-status (call-id)
  "Return the status of CALL-ID in the call list, or nil."
  (plist-get (gethash call-id toolbelt--calls) :status))

(defvar toolbelt-calls-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'toolbelt-show-call)
    (define-key map "A" #'toolbelt-approvals)
    (define-key map "Q" #'toolbelt-questions)
    (define-key map "c" #'toolbelt-call-tool)
    (define-key map "t" #'toolbelt-list-tools)
    map)
  "Keys of the live calls buffer.")

(define-derived-mode toolbelt-calls-mode tabulated-list-mode "Toolbelt"
  "Tool calls of the gateway as they happen.
\\{toolbelt-calls-mode-map}"
  (setq tabulated-list-format [("Time" 8 t) ("Agent" 12 t) ("Tool" 18 t) ("Status" 24 t) ("Progress" 0 nil)]
        tabulated-list-padding 1
        header-line-format '(:eval (toolbelt--calls-header)))
  (tabulated-list-init-header)
  (setq header-line-format '(:eval (toolbelt--calls-header))))

(defun toolbelt--calls-header ()
  "Return the header line of the call list."
  (format " %s  %s  agents: %s%s%s"
          (toolbelt--base-url)
          (cond (toolbelt--connected "connected")
                (toolbelt--wanted "reconnecting…")
                (toolbelt--refusal (format "refused: %s" toolbelt--refusal))
                (t "not connected (M-x toolbelt-connect)"))
          (or toolbelt--agent-state "idle")
          (if toolbelt--approvals (format "  %d awaiting approval" (length toolbelt--approvals)) "")
          (if toolbelt--questions (format "  %d awaiting input" (length toolbelt--questions)) "")))

(defun toolbelt--call-entries ()
  "Return the rows of the call list."
  (mapcar (lambda (id)
            (let ((call (gethash id toolbelt--calls)))
              (list id (vector (if (numberp (plist-get call :ts))
                                   (format-time-string "%H:%M:%S" (/ (plist-get call :ts) 1000.0))
                                 "")
                               (or (plist-get call :agent) "")
                               (or (plist-get call :tool) "")
                               (plist-get call :status)
                               (or (plist-get call :progress) "")))))
          toolbelt--call-order))

(defun toolbelt--refresh-calls ()
  "Redraw the call list, if it is shown in a buffer."
  (let ((buffer (get-buffer toolbelt-calls-buffer)))
    (when buffer
      (with-current-buffer buffer
        (setq tabulated-list-entries (toolbelt--call-entries))
        (tabulated-list-print t)))))

;;;###autoload
(defun toolbelt-calls ()
  "List each tool call of the gateway as it happens, with status and progress."
  (interactive)
  (with-current-buffer (get-buffer-create toolbelt-calls-buffer)
    (unless (derived-mode-p 'toolbelt-calls-mode) (toolbelt-calls-mode))
    (setq tabulated-list-entries (toolbelt--call-entries))
    (tabulated-list-print t)
    (pop-to-buffer (current-buffer))))

(defun toolbelt-show-call (call-id)
  "Show everything the gateway knows of CALL-ID."
  (interactive (list (or (tabulated-list-get-id) (read-string "Call id: "))))
  (let ((call (toolbelt--check (toolbelt--request "GET" (concat "/api/tool-calls/" (url-hexify-string call-id)))
                               (format "Reading call %s" call-id))))
    (with-help-window (format "*toolbelt call %s*" call-id)
      (princ (toolbelt--json-pretty call)))))

;;;; Tools

(defun toolbelt--tools ()
  "Return the gateway's tools, a list of alists."
  (append (alist-get 'tools (toolbelt--check (toolbelt--request "GET" "/api/tools") "Listing the tools"))
          nil))

(defvar toolbelt-tools-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'toolbelt-call-tool)
    map)
  "Keys of the tools buffer.")

(define-derived-mode toolbelt-tools-mode tabulated-list-mode "Toolbelt-Tools"
  "The tools of the gateway.  \\<toolbelt-tools-mode-map>\\[toolbelt-call-tool] calls one.
\\{toolbelt-tools-mode-map}"
  (setq tabulated-list-format [("Tool" 24 t) ("Effect" 12 t) ("Description" 0 nil)]
        tabulated-list-padding 1)
  (tabulated-list-init-header))

;;;###autoload
(defun toolbelt-list-tools ()
  "List the gateway's tools with their effect and description."
  (interactive)
  (let ((tools (toolbelt--tools)))
    (with-current-buffer (get-buffer-create "*toolbelt tools*")
      (toolbelt-tools-mode)
      (setq tabulated-list-entries
            (mapcar (lambda (tool)
                      (let-alist tool
                        (list .name (vector .name (format "%s" .effect)
                                            (car (split-string (or .description "") "\n"))))))
                    tools))
      (tabulated-list-print)
      (pop-to-buffer (current-buffer)))))

(defun toolbelt--input-text (input)
  "Return INPUT, JSON text, if it is one JSON object; else signal why not."
  (let ((value (condition-case err
                   (toolbelt--json-read input)
                 (error (signal 'toolbelt-error
                                (list (format "The input is not valid JSON (%s); write an object such as {\"path\": \"README.md\"}"
                                              (error-message-string err))))))))
    (unless (and (listp value) (string-prefix-p "{" (string-trim-left input)))
      (signal 'toolbelt-error
              (list "The input must be a JSON object such as {\"path\": \"README.md\"}, not an array or a single value")))
    (string-trim input)))

(defun toolbelt-call (tool input callback)
  "Call TOOL with INPUT, JSON text of an object; give CALLBACK the ToolResult.
The call runs in the background, so its approval can be answered here.
CALLBACK gets the result as an alist, or nil when the gateway gave none."
  (let ((body (format "{\"agentId\":%s,\"name\":%s,\"input\":%s}"
                      (json-encode toolbelt-agent-id) (json-encode tool) (toolbelt--input-text input))))
    (toolbelt--request-async
     "POST" (format "/api/runs/%s/tool-calls" (url-hexify-string toolbelt-run-id)) body
     (lambda (response)
       (let ((result (condition-case err
                         (toolbelt--check response (format "Calling %s" tool) '(404 422))
                       (toolbelt-error (message "toolbelt: %s" (error-message-string err)) nil))))
         (funcall callback result))))))

;;;###autoload
(defun toolbelt-call-tool (tool input)
  "Call TOOL with INPUT, JSON text of an object, and show the result."
  (interactive
   (let* ((names (mapcar (lambda (tool) (alist-get 'name tool)) (toolbelt--tools)))
          (tool (completing-read "Tool: " names nil t
                                 (and (derived-mode-p 'toolbelt-tools-mode) (tabulated-list-get-id)))))
     (list tool (read-string (format "%s input (a JSON object): " tool) "{}"))))
  (toolbelt-call tool input #'toolbelt--show-result)
  (message "toolbelt: calling %s…" tool))

(defun toolbelt--show-result (result)
  "Show RESULT, a ToolResult, in the *toolbelt result* buffer."
  (when result
    (with-current-buffer (get-buffer-create "*toolbelt result*")
      (let ((inhibit-read-only t))
        (special-mode)
        (erase-buffer)
        (let-alist result
          (insert (propertize (format "%s: %s" .tool .status) 'font-lock-face
                              (if (equal .status "success") 'success 'error))
                  (if .approvedBy (format " (approved by %s)" .approvedBy) "")
                  "\n\n")
          (when .error (insert (format "%s: %s\n\n" .error.code .error.message)))
          (when .rejection
            (insert (format "%s\n%s\n\n" (or .rejection.reason "") (or .rejection.userMessage ""))))
          (seq-doseq (part .content)
            (when (equal (alist-get 'type part) "text")
              (insert (alist-get 'text part) "\n")))
          (when (equal .display.kind "diff")
            (insert "\n" (toolbelt--fontify-diff .display.diff)))))
      (goto-char (point-min))
      (display-buffer (current-buffer)))))

(provide 'toolbelt)
;;; toolbelt.el ends here
