;;; check.el --- drives anf-lint through eglot, after the init.el that docs/editors.md shows
;; Opens ANF_MANIFEST and ANF_FSTAB; eglot-ensure (from the documented hooks) connects the server;
;; waits for Flymake diagnostics from eglot, asks for a hover on a manifest key, and writes JSON to
;; ANF_RESULT. Exits 0, or 1 when a step fails.
(require 'json)
(require 'flymake)
(defvar anf-result (list))
(defvar anf-timeout 30)

(defun anf-finish (ok &optional why)
  (push (cons 'ok (if ok t :json-false)) anf-result)
  (when why (push (cons 'error why) anf-result))
  (with-temp-file (getenv "ANF_RESULT") (insert (json-encode anf-result)))
  (kill-emacs (if ok 0 1)))

(defun anf-wait (predicate)
  "Polls PREDICATE (letting the server's answers in) until it holds or the timeout passes.
Each turn runs `post-command-hook' as the command loop of an interactive Emacs would (eglot
connects there), and starts Flymake where it waits for its buffer to show in a window (batch
Emacs shows none)."
  (let ((deadline (+ (float-time) anf-timeout)) (done nil))
    (while (and (not (setq done (funcall predicate))) (< (float-time) deadline))
      (run-hooks 'post-command-hook)
      (when (and (bound-and-true-p flymake-mode) (null (flymake-running-backends))) (flymake-start))
      (accept-process-output nil 0.05))
    done))

(defun anf-open (path)
  "Visits PATH as a user would: find-file, then one command loop turn (eglot-ensure connects there)."
  (find-file path)
  (run-hooks 'post-command-hook)
  (current-buffer))

(defun anf-eglot-diagnostics ()
  (seq-filter (lambda (d) (eq (flymake-diagnostic-backend d) 'eglot-flymake-backend)) (flymake-diagnostics)))

(condition-case err
    (let* ((manifest (anf-open (getenv "ANF_MANIFEST"))))
      (with-current-buffer manifest
        (push (cons 'manifest_mode (symbol-name major-mode)) anf-result)
        (unless (anf-wait (lambda () (eglot-current-server))) (anf-finish nil "eglot did not connect anf-lint to the manifest"))
        (unless (anf-wait (lambda () (anf-eglot-diagnostics))) (anf-finish nil "no diagnostics from anf-lint on the manifest"))
        (push (cons 'manifest_diagnostics (length (anf-eglot-diagnostics))) anf-result)
        (push (cons 'messages (mapcar #'flymake-diagnostic-text (anf-eglot-diagnostics))) anf-result)
        (let* ((line (string-to-number (getenv "ANF_KEY_LINE")))
               (col (string-to-number (getenv "ANF_KEY_COL")))
               (hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                       (list :textDocument (list :uri (eglot--path-to-uri (buffer-file-name)))
                                             :position (list :line line :character col)))))
          (push (cons 'key_hover (plist-get (plist-get hover :contents) :value)) anf-result)))
      (let ((fstab (anf-open (getenv "ANF_FSTAB"))))
        (with-current-buffer fstab
          (push (cons 'fstab_mode (symbol-name major-mode)) anf-result)
          (unless (anf-wait (lambda () (and (eglot-current-server) (anf-eglot-diagnostics)))) (anf-finish nil "no diagnostics from anf-lint on fstab"))
          (push (cons 'fstab_diagnostics (length (anf-eglot-diagnostics))) anf-result)
          ;; The root eglot gave the server: the folder with .anf-lint.yaml, also outside git.
          (push (cons 'fstab_root (expand-file-name (project-root (eglot--project (eglot-current-server))))) anf-result)))
      ;; ANF_OTHERS: more files (colon-separated), each with its mode, the server and its findings.
      (let ((others (list)))
        (dolist (path (split-string (or (getenv "ANF_OTHERS") "") ":" t))
          (with-current-buffer (anf-open path)
            (let ((connected (anf-wait (lambda () (eglot-current-server)))))
              (anf-wait (lambda () (anf-eglot-diagnostics)))
              (push (list (cons 'path path) (cons 'mode (symbol-name major-mode))
                          (cons 'connected (if connected t :json-false))
                          (cons 'diagnostics (length (anf-eglot-diagnostics))))
                    others))))
        (push (cons 'others (vconcat (nreverse others))) anf-result))
      (anf-finish t))
  (error (anf-finish nil (format "%S" err))))
