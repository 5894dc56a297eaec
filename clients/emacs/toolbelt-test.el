;;; toolbelt-test.el --- Tests of toolbelt.el against a real gateway  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run against a real `toolbelt serve' by packages/cli/src/emacs.test.ts, which starts the
;; gateway with a token on an ephemeral port and a temporary workspace, and passes them in
;; TOOLBELT_TEST_URL, TOOLBELT_TEST_TOKEN and TOOLBELT_TEST_ROOT.  The calls that need an
;; approval are made from Emacs itself with `toolbelt-call', in the background, so the test
;; answers them in the *Agent Approval* buffer as a person would.

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'toolbelt)

(defvar toolbelt-test-root (file-name-as-directory (getenv "TOOLBELT_TEST_ROOT"))
  "The gateway's workspace.")

(defun toolbelt-test--wait (predicate what &optional seconds)
  "Process events until PREDICATE is non-nil; fail saying WHAT after SECONDS."
  (let ((deadline (+ (float-time) (or seconds 20))))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall predicate) (ert-fail (format "gave up waiting for %s" what)))))

(defun toolbelt-test--connect ()
  "Follow the test gateway's event stream, unless already following it."
  (setq toolbelt-url (getenv "TOOLBELT_TEST_URL")
        toolbelt-token (getenv "TOOLBELT_TEST_TOKEN"))
  (unless (and toolbelt--connected toolbelt--stream)
    (toolbelt-connect)
    (toolbelt-test--wait (lambda () toolbelt--connected) "the event stream to catch up")))

(defun toolbelt-test--file (name content)
  "Write CONTENT to NAME in the workspace; return its absolute name."
  (let ((file (expand-file-name name toolbelt-test-root))
        (coding-system-for-write 'utf-8-unix))
    (write-region content nil file nil 'quiet)
    file))

(defun toolbelt-test--contents (file)
  "Return what FILE holds on disk."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-unix)) (insert-file-contents file))
    (buffer-string)))

(defun toolbelt-test--call (tool input)
  "Call TOOL with INPUT, an alist, in the background; return a cell for its result."
  (let ((cell (list :pending)))
    (toolbelt-call tool (json-encode input) (lambda (result) (setcar cell result)))
    cell))

(defun toolbelt-test--result (cell)
  "Wait for the result in CELL, from `toolbelt-test--call'."
  (toolbelt-test--wait (lambda () (not (eq (car cell) :pending))) "the call's result")
  (car cell))

(defun toolbelt-test--approval-for (file)
  "Wait for the approval buffer to ask about FILE; return the buffer."
  (toolbelt-test--wait
   (lambda ()
     (let ((buffer (get-buffer toolbelt-approval-buffer)))
       (and buffer
            (equal (alist-get 'path (alist-get 'input (buffer-local-value 'toolbelt--request buffer)))
                   file))))
   (format "an approval request about %s" file))
  (get-buffer toolbelt-approval-buffer))

(defun toolbelt-test--press (buffer keys)
  "Type KEYS in BUFFER, as a person would."
  ;; The command loop reads keys in the selected window's buffer, so BUFFER is selected first.
  (pop-to-buffer buffer)
  (with-current-buffer buffer
    (execute-kbd-macro (kbd keys))))

(defun toolbelt-test--press-confirming (buffer keys answer)
  "Type KEYS in BUFFER, `yes-or-no-p' answering ANSWER; return the prompts it was asked."
  (let ((prompts nil))
    (cl-letf (((symbol-function 'yes-or-no-p) (lambda (prompt) (push prompt prompts) answer)))
      (toolbelt-test--press buffer keys))
    (nreverse prompts)))

(defun toolbelt-test--status (id)
  "Return the status the gateway gives the call ID."
  (alist-get 'status (plist-get (toolbelt--request "GET" (concat "/api/tool-calls/" id)) :body)))

(defun toolbelt-test--edit (file old new)
  "Ask the gateway to replace OLD with NEW in FILE; return the result cell."
  (toolbelt-test--call "edit_file" `((path . ,file) (old_string . ,old) (new_string . ,new))))

(ert-deftest toolbelt-y-approves-and-the-edit-runs ()
  (toolbelt-test--connect)
  (let* ((file (toolbelt-test--file "approve.txt" "hello wörld\n"))
         (cell (toolbelt-test--edit file "wörld" "emacs"))
         (buffer (toolbelt-test--approval-for file)))
    (with-current-buffer buffer
      (should (eq major-mode 'toolbelt-approval-mode))
      (goto-char (point-min))
      (should (search-forward "Tool:    edit_file" nil t))
      (should (search-forward "\"old_string\": \"wörld\"" nil t))
      ;; The preview is the diff, coloured by diff-mode.
      (should (search-forward "-hello wörld" nil t))
      (should (memq (get-text-property (match-beginning 0) 'font-lock-face) '(diff-removed diff-indicator-removed)))
      (should (search-forward "+hello emacs" nil t))
      (should (memq (get-text-property (match-beginning 0) 'font-lock-face) '(diff-added diff-indicator-added)))
      (should (search-forward "a  always approve every edit_file call" nil t)))
    (should (eq (lookup-key toolbelt-approval-mode-map "y") #'toolbelt-approve))
    ;; A write is not destructive: no warning, and y alone approves it, without a yes-or-no-p.
    (with-current-buffer buffer
      (goto-char (point-min))
      (should-not (search-forward "DESTRUCTIVE" nil t)))
    (should-not (toolbelt-test--press-confirming buffer "y" nil))
    (let ((result (toolbelt-test--result cell)))
      (should (equal (alist-get 'status result) "success"))
      (should (equal (alist-get 'approvedBy result) "user"))
      (should (equal (toolbelt-test--contents file) "hello emacs\n"))
      ;; The call list followed the call to its end.
      (let ((id (alist-get 'callId result)))
        (toolbelt-test--wait (lambda () (equal (toolbelt-call-status id) "success")) "the call list to show success")
        (toolbelt-calls)
        (with-current-buffer toolbelt-calls-buffer
          (goto-char (point-min))
          (while (and (not (eobp)) (not (equal (tabulated-list-get-id) id)))
            (forward-line))
          (should (equal (tabulated-list-get-id) id))
          (should (string-match-p " emacs +edit_file +success" (thing-at-point 'line t))))))
    ;; Nothing else waits, so the approval buffer is empty.
    (should-not (buffer-local-value 'toolbelt--request buffer))))

(ert-deftest toolbelt-n-rejects-and-the-message-reaches-the-agent ()
  (toolbelt-test--connect)
  (let* ((file (toolbelt-test--file "reject.txt" "keep me\n"))
         (cell (toolbelt-test--edit file "keep" "drop"))
         (buffer (toolbelt-test--approval-for file)))
    (should (eq (lookup-key toolbelt-approval-mode-map "n") #'toolbelt-reject))
    ;; ? explains the tool, why it asks and what each key does.
    (toolbelt-test--press buffer "?")
    (with-current-buffer "*toolbelt help*"
      (goto-char (point-min))
      (should (search-forward "Replace old_string, exact text" nil t))
      (should (search-forward "Why you are asked: mode \"safe\" says ask for write calls" nil t))
      (should (search-forward "from now on every edit_file call" nil t)))
    (with-current-buffer buffer
      (toolbelt-reject "not this file: edit notes.txt instead"))
    (let ((result (toolbelt-test--result cell)))
      (should (equal (alist-get 'status result) "rejected"))
      (should (equal (let-alist result .rejection.userMessage) "not this file: edit notes.txt instead"))
      (should (equal (toolbelt-test--contents file) "keep me\n"))
      (toolbelt-test--wait (lambda () (equal (toolbelt-call-status (alist-get 'callId result)) "rejected"))
                           "the call list to show the rejection"))))

(ert-deftest toolbelt-a-stores-an-always-rule ()
  (toolbelt-test--connect)
  (let* ((file (expand-file-name "always.txt" toolbelt-test-root))
         (cell (toolbelt-test--call "write_file" `((path . ,file) (content . "first\n"))))
         (buffer (toolbelt-test--approval-for file)))
    ;; The buffer says what "always" covers before it is pressed.
    (with-current-buffer buffer
      (goto-char (point-min))
      (should (search-forward "a  always approve every write_file call" nil t)))
    (should (eq (lookup-key toolbelt-approval-mode-map "a") #'toolbelt-approve-always))
    (should-not (toolbelt-test--press-confirming buffer "a" nil))
    (let ((result (toolbelt-test--result cell)))
      (should (equal (alist-get 'status result) "success"))
      (should (equal (alist-get 'approvedBy result) "user")))
    ;; The gateway kept the rule: the next write_file runs without asking.
    (let* ((other (expand-file-name "always-again.txt" toolbelt-test-root))
           (result (toolbelt-test--result (toolbelt-test--call "write_file" `((path . ,other) (content . "second\n"))))))
      (should (equal (alist-get 'status result) "success"))
      (should (equal (alist-get 'approvedBy result) "remembered"))
      (should (equal (toolbelt-test--contents other) "second\n")))))

(ert-deftest toolbelt-destructive-call-asks-yes-before-it-is-approved ()
  (toolbelt-test--connect)
  (let* ((file (toolbelt-test--file "doomed.txt" "delete me\n"))
         (cell (toolbelt-test--call "delete_file" `((path . ,file))))
         (buffer (toolbelt-test--approval-for file))
         (id (alist-get 'callId (buffer-local-value 'toolbelt--request buffer)))
         (prompt "\\`This call is destructive: .*deletes .*doomed\\.txt\\.  Run it\\? \\'"))
    ;; A warning near the top, in the error face, says what it destroys.
    (with-current-buffer buffer
      (goto-char (point-min))
      (should (re-search-forward "^DESTRUCTIVE: .*deletes .*doomed\\.txt$" nil t))
      (should (< (line-number-at-pos) 5))
      (should (eq (get-text-property (match-beginning 0) 'font-lock-face) 'error)))
    ;; y, s and a each ask first; "no" sends nothing and the call keeps waiting, on display.
    (dolist (key '("y" "s" "a"))
      (let ((prompts (toolbelt-test--press-confirming buffer key nil)))
        (should (= (length prompts) 1))
        (should (string-match-p prompt (car prompts))))
      (should (equal (toolbelt-test--status id) "awaiting_approval"))
      (should (equal (alist-get 'callId (car toolbelt--approvals)) id))
      (should (equal (alist-get 'callId (buffer-local-value 'toolbelt--request buffer)) id)))
    (should (eq (car cell) :pending))
    (should (file-exists-p file))
    ;; "yes" sends the approval, and the file is gone.
    (should (string-match-p prompt (car (toolbelt-test--press-confirming buffer "y" t))))
    (let ((result (toolbelt-test--result cell)))
      (should (equal (alist-get 'status result) "success"))
      (should (equal (alist-get 'approvedBy result) "user")))
    (should-not (file-exists-p file))
    (should-not (toolbelt--queued id))))

(ert-deftest toolbelt-destructive-command-names-its-classification-and-n-needs-no-yes ()
  (toolbelt-test--connect)
  (let* ((file (toolbelt-test--file "victim.txt" "rm me\n"))
         (command "rm victim.txt")
         (shell (lambda () (toolbelt-test--call "shell_exec" `((command . ,command)))))
         (approval (lambda ()
                     (toolbelt-test--wait
                      (lambda () (let ((buffer (get-buffer toolbelt-approval-buffer)))
                                   (and buffer (equal (let-alist (buffer-local-value 'toolbelt--request buffer) .input.command)
                                                      command))))
                      "shell_exec to ask for approval")
                     (get-buffer toolbelt-approval-buffer)))
         (cell (funcall shell))
         (buffer (funcall approval))
         (classification (let-alist (buffer-local-value 'toolbelt--request buffer) .preview.classification))
         ;; The warning says what the classification does, without repeating "destructive".
         (what (string-remove-suffix "." (string-remove-prefix "destructive: " classification))))
    (should (equal (let-alist (buffer-local-value 'toolbelt--request buffer) .effect) "destructive"))
    (should (string-match-p "rm victim\\.txt" what))
    (with-current-buffer buffer
      (goto-char (point-min))
      (should (search-forward (concat "\nDESTRUCTIVE: " what "\n") nil t)))
    ;; n rejects at once, with no yes-or-no-p.
    (cl-letf (((symbol-function 'yes-or-no-p) (lambda (prompt) (ert-fail (format "asked %S" prompt)))))
      (with-current-buffer buffer (toolbelt-reject "")))
    (should (equal (alist-get 'status (toolbelt-test--result cell)) "rejected"))
    (should (file-exists-p file))
    ;; Asked again, "yes" lets it run.
    (setq cell (funcall shell) buffer (funcall approval))
    (should (equal (toolbelt-test--press-confirming buffer "y" t)
                   (list (format "This call is destructive: %s.  Run it? " what))))
    (should (equal (alist-get 'status (toolbelt-test--result cell)) "success"))
    (should-not (file-exists-p file))))

(ert-deftest toolbelt-file-changed-reverts-an-unmodified-buffer-only ()
  (toolbelt-test--connect)
  (let* ((clean-file (toolbelt-test--file "clean.txt" "one\n"))
         (dirty-file (toolbelt-test--file "dirty.txt" "one\n"))
         (clean (find-file-noselect clean-file))
         (dirty (find-file-noselect dirty-file)))
    (with-current-buffer dirty
      (goto-char (point-max))
      (insert "my unsaved line\n"))
    (dolist (file (list clean-file dirty-file))
      (let ((cell (toolbelt-test--edit file "one" "two")))
        (toolbelt-test--press (toolbelt-test--approval-for file) "y")
        (should (equal (alist-get 'status (toolbelt-test--result cell)) "success"))))
    (toolbelt-test--wait (lambda () (equal (with-current-buffer clean (buffer-string)) "two\n"))
                         "the clean buffer to be reverted")
    (with-current-buffer clean (should-not (buffer-modified-p)))
    ;; The edited buffer keeps its unsaved text.
    (with-current-buffer dirty
      (should (equal (buffer-string) "one\nmy unsaved line\n"))
      (should (buffer-modified-p))
      (set-buffer-modified-p nil))
    (kill-buffer clean)
    (kill-buffer dirty)))

(ert-deftest toolbelt-reconnects-with-last-event-id ()
  (toolbelt-test--connect)
  (let ((dropped toolbelt--stream))
    (should toolbelt--last-event-id)
    ;; The connection drops while toolbelt still wants it.
    (delete-process dropped)
    (toolbelt-test--wait (lambda () toolbelt--reconnect-timer) "a reconnection to be scheduled")
    (should-not toolbelt--connected)
    ;; Hold the reconnection until a call has happened unseen.
    (cancel-timer toolbelt--reconnect-timer)
    (let* ((listed (toolbelt--check (toolbelt--request "POST" "/api/runs/unseen/tool-calls"
                                                       "{\"agentId\":\"unseen\",\"name\":\"list_directory\",\"input\":{\"path\":\".\"}}")
                                    "Calling list_directory"))
           (id (alist-get 'callId listed)))
      (should (equal (alist-get 'status listed) "success"))
      (should-not (toolbelt-call-status id))
      ;; What the timer runs: the stream resumes after the last id, so the missed call is replayed.
      (toolbelt--open)
      (should-not (eq toolbelt--stream dropped))
      (toolbelt-test--wait (lambda () (equal (toolbelt-call-status id) "success")) "the missed call to be replayed")
      (toolbelt-test--wait (lambda () toolbelt--connected) "the stream to catch up again"))))

(ert-deftest toolbelt-shows-a-call-that-waited-before-connecting ()
  (toolbelt-test--connect)
  (toolbelt-disconnect)
  (let* ((file (toolbelt-test--file "early.txt" "early\n"))
         (cell (toolbelt-test--edit file "early" "late")))
    (toolbelt-test--wait
     (lambda ()
       (let ((calls (alist-get 'calls (plist-get (toolbelt--request "GET" "/api/tool-calls?status=awaiting_approval") :body))))
         (seq-find (lambda (c) (equal (let-alist c .input.path) file)) calls)))
     "the call to await approval")
    (toolbelt-test--connect)
    (toolbelt-test--press (toolbelt-test--approval-for file) "y")
    (should (equal (alist-get 'status (toolbelt-test--result cell)) "success"))
    (should (equal (toolbelt-test--contents file) "late\n"))))

(ert-deftest toolbelt-calls-show-progress ()
  (toolbelt-test--connect)
  (toolbelt-test--file "progress.txt" "a needle in a haystack\n")
  ;; grep reports progress as hits arrive: the first hit is reported at once.
  (let* ((result (toolbelt-test--result (toolbelt-test--call "grep" '((pattern . "needle") (path . "progress.txt")))))
         (id (alist-get 'callId result)))
    (should (equal (alist-get 'status result) "success"))
    (toolbelt-test--wait (lambda () (equal (toolbelt-call-status id) "success")) "the call list to show the result")
    (should (string-match-p "\\`1/[0-9]+ 1 files so far; latest progress.txt\\'"
                            (plist-get (gethash id toolbelt--calls) :progress)))
    (toolbelt-calls)
    (with-current-buffer toolbelt-calls-buffer
      (goto-char (point-min))
      (should (re-search-forward "grep +success +1/[0-9]+ 1 files so far" nil t)))))

(ert-deftest toolbelt-reads-a-stream-split-anywhere ()
  ;; The network may cut the stream at any byte: inside a header, a chunk size, a chunk's CRLF,
  ;; or a UTF-8 character.  Fed one byte at a time, the same events come out whole.
  (let* ((events '("id: 1\nevent: x.test\ndata: {\"text\":\"h\u00e9llo w\u00f6rld\"}\n\n"
                   ": keep-alive\n\n"
                   "retry: 2500\n\nid: 2\nevent: x.test\ndata: {\"text\":\n"
                   "data: \"two lines\"}\n\n"))
         (body (mapconcat (lambda (e) (let ((bytes (encode-coding-string e 'utf-8)))
                                        (format "%x\r\n%s\r\n" (length bytes) bytes)))
                          events ""))
         (response (concat "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                           "Transfer-Encoding: chunked\r\n\r\n" body))
         (proc (make-pipe-process :name "toolbelt-test-stream" :noquery t))
         (toolbelt--last-event-id nil)
         (toolbelt--retry-ms 1000)
         (seen nil)
         (toolbelt-event-functions (list (lambda (type event) (push (cons type (alist-get 'text event)) seen)))))
    (unwind-protect
        (progn
          (dolist (key '(toolbelt-raw toolbelt-text)) (process-put proc key ""))
          (process-put proc 'toolbelt-chunk 'size)
          (dotimes (i (length response))
            (toolbelt--stream-filter proc (substring response i (1+ i)))))
      (delete-process proc))
    (should (equal (nreverse seen) '(("x.test" . "h\u00e9llo w\u00f6rld") ("x.test" . "two lines"))))
    (should (equal toolbelt--last-event-id "2"))
    (should (= toolbelt--retry-ms 2500))))

(ert-deftest toolbelt-token-from-auth-source ()
  (let* ((url (url-generic-parse-url (getenv "TOOLBELT_TEST_URL")))
         (authinfo (make-temp-file "toolbelt-authinfo"))
         (auth-sources (list authinfo))
         (toolbelt-url (getenv "TOOLBELT_TEST_URL"))
         (toolbelt-token nil)
         (process-environment (cons "TOOLBELT_GATEWAY_TOKEN" process-environment)))
    (unwind-protect
        (progn
          (write-region (format "machine %s port %d password %s\n" (url-host url) (url-port url) (getenv "TOOLBELT_TEST_TOKEN"))
                        nil authinfo nil 'quiet)
          (auth-source-forget-all-cached)
          (should (equal (toolbelt--auth-token) (getenv "TOOLBELT_TEST_TOKEN")))
          (should (seq-find (lambda (tool) (equal (alist-get 'name tool) "edit_file")) (toolbelt--tools))))
      (delete-file authinfo)
      (auth-source-forget-all-cached))))

(ert-deftest toolbelt-a-wrong-token-is-refused-with-the-reason ()
  (let* ((toolbelt-url (getenv "TOOLBELT_TEST_URL"))
         (toolbelt-token "not-the-token-of-this-gateway")
         (err (should-error (toolbelt-list-tools) :type 'toolbelt-error)))
    (should (string-match-p "HTTP 401" (error-message-string err)))))

(ert-deftest toolbelt-a-refused-stream-stops-and-says-why ()
  (toolbelt-disconnect)
  (let ((toolbelt-url (getenv "TOOLBELT_TEST_URL"))
        (toolbelt-token "not-the-token-of-this-gateway"))
    (toolbelt-connect)
    (toolbelt-test--wait (lambda () (and (not toolbelt--wanted) (not toolbelt--stream))) "the refused stream to close")
    (should-not toolbelt--reconnect-timer)
    (should (string-match-p "unknown token.*(HTTP 401)" toolbelt--refusal))
    (should (string-match-p "refused: " (toolbelt--calls-header)))))

(ert-deftest toolbelt-lists-tools-and-calls-one ()
  (toolbelt-test--connect)
  (toolbelt-list-tools)
  (with-current-buffer "*toolbelt tools*"
    (goto-char (point-min))
    (should (re-search-forward "^ edit_file +write +Replace old_string, exact text" nil t)))
  (let ((file (toolbelt-test--file "read.txt" "what the file says\n")))
    (when (get-buffer "*toolbelt result*") (kill-buffer "*toolbelt result*"))
    (toolbelt-call-tool "read_file" (json-encode `((path . ,file))))
    (toolbelt-test--wait (lambda () (get-buffer "*toolbelt result*")) "the result buffer")
    (with-current-buffer "*toolbelt result*"
      (goto-char (point-min))
      (should (search-forward "read_file: success" nil t))
      (should (search-forward "what the file says" nil t))))
  ;; Input that is not a JSON object is refused before anything is sent.
  (should (string-match-p "not valid JSON"
                          (error-message-string (should-error (toolbelt-call-tool "read_file" "{path:") :type 'toolbelt-error))))
  (should (string-match-p "must be a JSON object"
                          (error-message-string (should-error (toolbelt-call-tool "read_file" "[1]") :type 'toolbelt-error)))))

;;;; Context: where in the conversation a call was made.  The gateway here does not send it
;;;; yet, so these render a request shaped as `approval.requested' carries one.

(defun toolbelt-test--request (&optional context)
  "Return an approval request for an edit, as the gateway sends it, with CONTEXT if given."
  (let ((request (toolbelt--json-read
                  (json-encode
                   `((callId . "tc_ctx1") (sessionId . "sess-1") (tool . "edit_file") (title . "Edit file")
                     (description . "Replace a string in a file") (effect . "write")
                     (reason . "mode \"safe\" says ask for write calls")
                     (input . ((path . "/w/src/auth.ts") (old_string . "exp < now") (new_string . "exp * 1000 < now")))
                     (preview . ((kind . "diff") (path . "/w/src/auth.ts")
                                 (diff . "--- a/src/auth.ts\n+++ b/src/auth.ts\n@@ -1 +1 @@\n-exp < now\n+exp * 1000 < now\n")))
                     (remember . ((kind . "tool") (tool . "edit_file")))
                     (warnings . ["edits a file outside the last read"])
                     (agentId . "coder") (runId . "run-7")
                     ,@(and context `((context . ,context))))))))
    (with-temp-buffer
      (toolbelt--render-approval request)
      (buffer-string))))

(defun toolbelt-test--position (text haystack)
  "Return where TEXT starts in HAYSTACK; fail if it is not there."
  (or (string-search text haystack) (ert-fail (format "%S not in the buffer:\n%s" text haystack))))

(ert-deftest toolbelt-approval-shows-the-context-after-the-header-before-the-preview ()
  (let* ((context (concat "Fixing authentication bug: the login handler accepts expired tokens because "
                          "the expiry check compares seconds with milliseconds, so the agent edits that "
                          "check and then runs the test suite again to see it pass."))
         (text (toolbelt-test--request context))
         (at (toolbelt-test--position "\nContext: Fixing authentication bug:" text)))
    ;; After the tool and agent lines and the warnings, before the parameters and the preview.
    (should (< (toolbelt-test--position "\nTool:    edit_file (Edit file)" text)
               (toolbelt-test--position "\nAgent:   coder, run run-7, call tc_ctx1" text)
               (toolbelt-test--position "\nWarning: edits a file" text)
               at
               (toolbelt-test--position "\nParameters\n" text)
               (toolbelt-test--position "\nPreview of changes to /w/src/auth.ts\n" text)
               (toolbelt-test--position "\nActions\n" text)))
    ;; Long text is filled: no line past `fill-column', the rest indented under the first,
    ;; and every word still there.
    (let* ((lines (split-string (substring text (1+ at) (toolbelt-test--position "\nParameters\n" text)) "\n" t))
           (block (mapconcat #'identity lines " ")))
      (should (> (length lines) 2))
      (dolist (line lines) (should (<= (length line) fill-column)))
      (dolist (line (cdr lines)) (should (string-prefix-p "         " line)))
      (should (equal (split-string (string-remove-prefix "Context:" block)) (split-string context))))
    ;; The label is bold, as the other fields' are.
    (should (eq (get-text-property (1+ at) 'font-lock-face text) 'bold))
    ;; ? says it too, with what it is.
    (let ((request (toolbelt--json-read (json-encode `((callId . "tc_ctx2") (tool . "edit_file") (reason . "asked")
                                                       (remember . ((kind . "tool") (tool . "edit_file")))
                                                       (context . "Fixing authentication bug"))))))
      (with-temp-buffer
        (toolbelt--render-approval request)
        (toolbelt-approval-help))
      (unwind-protect
          (with-current-buffer "*toolbelt help*"
            (should (string-match-p "Context (where in the conversation the agent made this call, in its own words): Fixing authentication bug"
                                    (replace-regexp-in-string "\n *" " " (buffer-string)))))
        (kill-buffer "*toolbelt help*")))))

(ert-deftest toolbelt-approval-without-context-shows-no-context-line ()
  (dolist (context '(nil "" "  \n\t "))
    (let ((text (toolbelt-test--request context)))
      (should-not (string-search "Context" text))
      ;; The rest is as before: the warnings, then the parameters.
      (should (string-match-p "^Warning: edits a file outside the last read\n\nParameters\n" text))))
  ;; Control characters in the agent's words are shown escaped, so they cannot hide or recolour text.
  (let ((text (toolbelt-test--request "Fixing\r the \e[8mbug")))
    (should (string-search "\nContext: Fixing\\r the \\e[8mbug\n" text))
    (should-not (string-match-p "[\r\e]" text))))

;;;; What you approve is what runs: control, bidi and invisible characters are shown escaped.

(defconst toolbelt-test--raw "[\r\e\a\b\u200b\u202e\u2066-\u2069]"
  "A character of the payloads below that must never reach a buffer as such.")

(ert-deftest toolbelt-approval-shows-a-command-s-hidden-characters-escaped ()
  (let* ((command (concat "rm -f victim.txt #\r\e[2K\e[1A\e[8m\e]8;;https://x.invalid\a"
                          "\b\b\u202e\u2066echo hello\u2069\u200b"))
         (request (toolbelt--json-read
                   (json-encode
                    `((callId . "tc_esc1") (sessionId . "sess-1") (tool . "shell_exec") (effect . "destructive")
                      (description . "Runs a command\e[8m hidden")
                      (reason . "mode \"safe\" says ask\r for destructive calls")
                      (input . ((command . ,command)))
                      (preview . ((kind . "command") (command . ,command) (cwd . ".")
                                  (classification . ,(concat "destructive: " command))))
                      (remember . ((kind . "exact") (tool . "shell_exec") (command . ,command)))
                      (warnings . []) (agentId . "coder") (runId . "run-7")))))
         (shown (concat "rm -f victim.txt #\\r\\e[2K\\e[1A\\e[8m\\e]8;;https://x.invalid\\a"
                        "\\b\\b<U+202E><U+2066>echo hello<U+2069><U+200B>")))
    ;; The control: the request itself holds the raw characters.
    (should (string-match-p toolbelt-test--raw (alist-get 'command (alist-get 'input request))))
    (with-temp-buffer
      (toolbelt--render-approval request)
      (let ((text (buffer-string)))
        (should-not (string-match-p toolbelt-test--raw text))
        (should (string-search (concat "\n$ " shown "\n  in .") text))
        (should (string-search (concat "DESTRUCTIVE: " shown "\n") text))
        (should (string-search "Reason:  mode \"safe\" says ask\\r for destructive calls" text))
        (should (string-search (concat "a  always approve shell_exec running exactly `" shown "'") text))
        (should (string-search "Warning: This call holds control, bidi or invisible characters" text))
        ;; The parameters, as JSON: bidi characters escaped as well.
        (should (string-search "echo hello<U+2069><U+200B>" (substring text (string-search "\nParameters\n" text))))
        (should (eq bidi-paragraph-direction 'left-to-right)))
      ;; ? and the header line say it escaped too.
      (should-not (string-match-p toolbelt-test--raw (toolbelt--approval-header)))
      (toolbelt-approval-help))
    (unwind-protect
        (with-current-buffer "*toolbelt help*"
          (should-not (string-match-p toolbelt-test--raw (buffer-string)))
          (should (string-search "Runs a command\\e[8m hidden" (buffer-string))))
      (kill-buffer "*toolbelt help*"))))

(ert-deftest toolbelt-approval-shows-a-file-name-and-diff-escaped-and-the-raw-text-is-written ()
  (toolbelt-test--connect)
  ;; An edit (an earlier test always approves write_file): its file name and new lines hold the payload.
  (let* ((name "notes\u202etxt.sh")
         (file (toolbelt-test--file name "first line\nthird\n"))
         (new "first line\r\e[2Ksecond \u2067line\u2069\nthird\u200b")
         (cell (toolbelt-test--edit file "first line\nthird" new))
         (buffer (toolbelt-test--approval-for file)))
    (should (string-match-p toolbelt-test--raw (concat name new)))
    (with-current-buffer buffer
      (let ((text (buffer-substring-no-properties (point-min) (point-max))))
        (should-not (string-match-p toolbelt-test--raw text))
        (should (string-search "Preview of changes to " text))
        (should (string-search "notes<U+202E>txt.sh" text))
        ;; One diff line each, escaped, still coloured as added lines by diff-mode.
        (should (string-search "\n+first line\\r\\e[2Ksecond <U+2067>line<U+2069>\n+third<U+200B>\n" text)))
      (goto-char (point-min))
      (should (search-forward "+first line\\r" nil t))
      (should (memq (get-text-property (match-beginning 0) 'font-lock-face) '(diff-added diff-indicator-added))))
    (toolbelt-test--press buffer "y")
    (should (equal (alist-get 'status (toolbelt-test--result cell)) "success"))
    ;; What was written is the raw text, in the file of the raw name.
    (should (equal (toolbelt-test--contents file) (concat new "\n")))))

;;;; Questions: fx__ask_user, of the MCP fixture server, asks for a name, a count, a colour and a note.

(defun toolbelt-test--no-questions ()
  "Dismiss the questions an earlier test left open, so they do not stand in front."
  (dolist (question toolbelt--questions)
    (toolbelt--request "POST" (format "/api/tool-calls/%s/answer" (alist-get 'callId question)) "{\"action\":\"cancel\"}"))
  (toolbelt-test--wait (lambda () (null toolbelt--questions)) "the questions left open to be dismissed"))

(defun toolbelt-test--ask ()
  "Call fx__ask_user in the background; return a cell for its result."
  (let ((cell (list :pending)))
    (toolbelt-call "fx__ask_user" "{}" (lambda (result) (setcar cell result)))
    cell))

(defun toolbelt-test--approve-ask ()
  "Approve the next fx__ask_user call in the approval buffer; return its call id."
  (toolbelt-test--wait
   (lambda () (let ((buffer (get-buffer toolbelt-approval-buffer)))
                (and buffer (equal (alist-get 'tool (buffer-local-value 'toolbelt--request buffer)) "fx__ask_user"))))
   "fx__ask_user to ask for approval")
  (let ((id (alist-get 'callId (buffer-local-value 'toolbelt--request (get-buffer toolbelt-approval-buffer)))))
    (toolbelt-test--press (get-buffer toolbelt-approval-buffer) "y")
    id))

(defun toolbelt-test--question-for (id)
  "Wait for the question buffer to show the question of the call ID; return the buffer."
  (toolbelt-test--wait
   (lambda () (let ((buffer (get-buffer toolbelt-question-buffer)))
                (and buffer (equal (alist-get 'callId (buffer-local-value 'toolbelt--question buffer)) id))))
   (format "the question of %s" id))
  (get-buffer toolbelt-question-buffer))

(defun toolbelt-test--answer-with (buffer key answers)
  "Press KEY in BUFFER, the minibuffer answering with ANSWERS in turn.
Return the prompts read, in order."
  (let ((prompts nil))
    (cl-letf* ((reply (lambda (prompt &rest _)
                        (push prompt prompts)
                        (or (pop answers) (ert-fail (format "asked %S once too often" prompt)))))
               ((symbol-function 'read-string) reply)
               ((symbol-function 'completing-read) reply))
      (toolbelt-test--press buffer key))
    (should-not answers)
    (nreverse prompts)))

(defun toolbelt-test--told (result)
  "Return what fx__ask_user says it was told, from its RESULT."
  (should (equal (alist-get 'status result) "success"))
  (toolbelt--json-read (alist-get 'text (aref (alist-get 'content result) 0))))

(defun toolbelt-test--buffer-has (buffer &rest texts)
  "Check that BUFFER holds each of TEXTS, in order."
  (with-current-buffer buffer
    (goto-char (point-min))
    (dolist (text texts)
      (should (search-forward text nil t)))))

(ert-deftest toolbelt-question-answered-reaches-the-tool-with-the-defaults ()
  (toolbelt-test--connect)
  (toolbelt-test--no-questions)
  (let* ((cell (toolbelt-test--ask))
         (id (toolbelt-test--approve-ask))
         (buffer (toolbelt-test--question-for id)))
    (with-current-buffer buffer (should (eq major-mode 'toolbelt-question-mode)))
    ;; Who asks, the message, and each field with its title, kind, default and choices.
    (toolbelt-test--buffer-has buffer "Question from MCP server \"fx\"" "Tool:    fx__ask_user"
                               (format "Agent:   emacs, run emacs, call %s" id) "Which name?"
                               "Name (name): text, required, default \"Ada\""
                               "Count (count): a whole number, default 3"
                               "color: one of red, green, default \"green\""
                               "Note (note): text\n")
    (toolbelt-test--wait (lambda () (equal (toolbelt-call-status id) "awaiting input")) "the call list to show awaiting input")
    (toolbelt-calls)
    (toolbelt-test--buffer-has toolbelt-calls-buffer "fx__ask_user       awaiting input")
    (should (eq (lookup-key toolbelt-question-mode-map (kbd "RET")) #'toolbelt-answer-question))
    (should (eq (lookup-key toolbelt-question-mode-map "y") #'toolbelt-answer-question))
    (toolbelt-test--press buffer "?")
    (toolbelt-test--buffer-has "*toolbelt help*" "MCP server \"fx\" asks, during a call of fx__ask_user:" "Which name?"
                               "d         decline")
    ;; A name; RET alone for the rest keeps the count's and colour's defaults and leaves the note out.
    (should (equal (toolbelt-test--answer-with buffer "RET" (list "Grace" "" "" ""))
                   '("Name (name) (default \"Ada\"): " "Count (count) (default 3): "
                     "color (default \"green\"): " "Note (note) (optional): ")))
    (should (equal (toolbelt-test--told (toolbelt-test--result cell))
                   '((action . "accept") (content (name . "Grace") (count . 3) (color . "green")))))
    (toolbelt-test--wait (lambda () (equal (toolbelt-call-status id) "success")) "the call list to show success")
    (should-not toolbelt--questions)
    (should-not (buffer-local-value 'toolbelt--question buffer))))

(ert-deftest toolbelt-question-d-declines-and-questions-queue ()
  (toolbelt-test--connect)
  (toolbelt-test--no-questions)
  (let* ((first (toolbelt-test--ask))
         (first-id (toolbelt-test--approve-ask))
         (buffer (toolbelt-test--question-for first-id))
         (second (toolbelt-test--ask))
         (second-id (toolbelt-test--approve-ask)))
    (toolbelt-test--wait (lambda () (= (length toolbelt--questions) 2)) "the second question to be queued")
    ;; The first stays on display while the second waits its turn.
    (with-current-buffer buffer
      (should (equal (alist-get 'callId toolbelt--question) first-id))
      (should (string-match-p "(1 more queued)" (toolbelt--question-header))))
    (should (eq (lookup-key toolbelt-question-mode-map "d") #'toolbelt-decline-question))
    (toolbelt-test--press buffer "d")
    (should (equal (toolbelt-test--told (toolbelt-test--result first)) '((action . "decline"))))
    (toolbelt-test--question-for second-id)
    (toolbelt-test--answer-with buffer "y" (list "" "" "" ""))
    (should (equal (toolbelt-test--told (toolbelt-test--result second))
                   '((action . "accept") (content (name . "Ada") (count . 3) (color . "green")))))))

(ert-deftest toolbelt-question-a-bad-value-is-asked-again-or-refused-and-kept ()
  (toolbelt-test--connect)
  (toolbelt-test--no-questions)
  (let* ((cell (toolbelt-test--ask))
         (id (toolbelt-test--approve-ask))
         (buffer (toolbelt-test--question-for id)))
    ;; What the gateway refuses is shown, and the question stays open.
    (with-current-buffer buffer
      (toolbelt-answer-question '((count . "three"))))
    (toolbelt-test--buffer-has buffer "Refused: the answer does not fit the question's form: \"count\" must be a whole number"
                               "Which name?")
    (should (equal (alist-get 'callId (car toolbelt--questions)) id))
    (should (equal (alist-get 'status (plist-get (toolbelt--request "GET" (concat "/api/tool-calls/" id)) :body))
                   "awaiting_input"))
    ;; Typed, "three" and 2.5 for the whole number are asked again before anything is sent.
    (should (equal (toolbelt-test--answer-with buffer "RET" (list "Grace" "three" "2.5" "4" "red" "blue note"))
                   '("Name (name) (default \"Ada\"): " "Count (count) (default 3): " "Count (count) (default 3): "
                     "Count (count) (default 3): " "color (default \"green\"): " "Note (note) (optional): ")))
    (should (equal (toolbelt-test--told (toolbelt-test--result cell))
                   '((action . "accept") (content (name . "Grace") (count . 4) (color . "red") (note . "blue note")))))))

(ert-deftest toolbelt-question-reads-each-kind-of-field ()
  ;; Each kind of field is read as it should be and sent as JSON of its type; a required field
  ;; without a default is asked again when left empty, an optional one is left out.
  (let* ((schema (toolbelt--json-read
                  (concat "{\"type\":\"object\",\"required\":[\"who\"],\"properties\":{"
                          "\"who\":{\"type\":\"string\"},"
                          "\"size\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"s\",\"title\":\"Small\"},{\"const\":\"l\",\"title\":\"Large\"}]},"
                          "\"ratio\":{\"type\":\"number\"},"
                          "\"sure\":{\"type\":\"boolean\",\"default\":true},"
                          "\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"x\",\"y\",\"z\"]}},"
                          "\"skip\":{\"type\":\"integer\"}}}")))
         (texts (list "" "Ada" "Large" "1.5" ""))
         (lists (list '("x" "q") '("z" "x")))
         (prompts nil))
    (cl-letf* ((reply (lambda (prompt &rest _) (push prompt prompts) (pop texts)))
               ((symbol-function 'read-string) reply)
               ((symbol-function 'completing-read) reply)
               ((symbol-function 'completing-read-multiple) (lambda (prompt &rest _) (push prompt prompts) (pop lists)))
               ((symbol-function 'y-or-n-p) (lambda (prompt) (push prompt prompts) nil)))
      (should (equal (json-encode (toolbelt--read-answer schema))
                     "{\"who\":\"Ada\",\"size\":\"l\",\"ratio\":1.5,\"sure\":false,\"tags\":[\"z\",\"x\"]}")))
    (should (equal (nreverse prompts)
                   '("who: " "who: " "size (optional): " "ratio (optional): " "sure (default true): "
                     "tags (optional): " "tags (optional): " "skip (optional): ")))))

(ert-deftest toolbelt-question-waiting-before-connecting-shows-and-c-dismisses ()
  (toolbelt-test--connect)
  (toolbelt-test--no-questions)
  (toolbelt-disconnect)
  (let* ((cell (toolbelt-test--ask))
         (waiting (lambda (status)
                    (let ((calls (alist-get 'calls (plist-get (toolbelt--request "GET" (format "/api/tool-calls?status=%s" status)) :body))))
                      (seq-find (lambda (c) (equal (alist-get 'tool c) "fx__ask_user")) calls))))
         (id (alist-get 'callId (toolbelt-test--wait (lambda () (funcall waiting "awaiting_approval")) "the call to await approval"))))
    ;; Approved over HTTP, as another client would, while Emacs is away.
    (toolbelt--check (toolbelt--request "POST" (format "/api/tool-calls/%s/approve" id) "{\"scope\":\"once\"}") "Approving")
    (toolbelt-test--wait (lambda () (equal (alist-get 'status (plist-get (toolbelt--request "GET" (concat "/api/tool-calls/" id)) :body))
                                           "awaiting_input"))
                         "the call to await input")
    (toolbelt-test--connect)
    (let ((buffer (toolbelt-test--question-for id)))
      (should (equal (toolbelt-call-status id) "awaiting input"))
      (should (eq (lookup-key toolbelt-question-mode-map "c") #'toolbelt-cancel-question))
      (toolbelt-test--press buffer "c"))
    (should (equal (toolbelt-test--told (toolbelt-test--result cell)) '((action . "cancel"))))))

(provide 'toolbelt-test)
;;; toolbelt-test.el ends here
