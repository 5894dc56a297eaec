;;; toolbelt-test.el --- Tests of toolbelt.el against a real gateway  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run against a real `toolbelt serve' by packages/cli/src/emacs.test.ts, which starts the
;; gateway with a token on an ephemeral port and a temporary workspace, and passes them in
;; TOOLBELT_TEST_URL, TOOLBELT_TEST_TOKEN and TOOLBELT_TEST_ROOT.  The calls that need an
;; approval are made from Emacs itself with `toolbelt-call', in the background, so the test
;; answers them in the *Agent Approval* buffer as a person would.

;;; Code:

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
  (with-current-buffer buffer
    (execute-kbd-macro (kbd keys))))

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
    (toolbelt-test--press buffer "y")
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
    (toolbelt-test--press buffer "a")
    (let ((result (toolbelt-test--result cell)))
      (should (equal (alist-get 'status result) "success"))
      (should (equal (alist-get 'approvedBy result) "user")))
    ;; The gateway kept the rule: the next write_file runs without asking.
    (let* ((other (expand-file-name "always-again.txt" toolbelt-test-root))
           (result (toolbelt-test--result (toolbelt-test--call "write_file" `((path . ,other) (content . "second\n"))))))
      (should (equal (alist-get 'status result) "success"))
      (should (equal (alist-get 'approvedBy result) "remembered"))
      (should (equal (toolbelt-test--contents other) "second\n")))))

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

(provide 'toolbelt-test)
;;; toolbelt-test.el ends here
