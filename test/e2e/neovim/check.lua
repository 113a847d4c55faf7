-- Drives the anf-lint language server from a real editor we did not write: headless Neovim 0.7+.
-- Opens the file given on the command line, waits for the server's diagnostics, asks for a hover
-- at ANF_HOVER_LINE/ANF_HOVER_COL (0-based), applies the first quick fix that is not a
-- "disable"/"fix all" action, waits for the diagnostics of the edited text, and writes everything
-- as JSON to ANF_RESULT. Exits with `qall!` (success) or `cquit 1` (a step failed).
local server = assert(os.getenv('ANF_SERVER'), 'ANF_SERVER is not set')
local root = assert(os.getenv('ANF_ROOT'), 'ANF_ROOT is not set')
local result_file = assert(os.getenv('ANF_RESULT'), 'ANF_RESULT is not set')
local hover_line = tonumber(os.getenv('ANF_HOVER_LINE') or '0')
local hover_col = tonumber(os.getenv('ANF_HOVER_COL') or '0')
local timeout = tonumber(os.getenv('ANF_TIMEOUT_MS') or '15000')

local result = { steps = {} }
local function finish(ok, why)
  result.ok = ok
  result.error = why
  local file = assert(io.open(result_file, 'w'))
  file:write(vim.fn.json_encode(result))
  file:close()
  if ok then vim.cmd('qall!') else vim.cmd('cquit 1') end
end

local bufnr = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(bufnr)
local published = {}   -- publishDiagnostics params by version, as the server sent them

local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
  if params and params.uri == uri then table.insert(published, params) end
  return default_handler(err, params, ctx, config)
end

local client_id = vim.lsp.start_client({
  name = 'anf-lint',
  cmd = { 'node', server, '--stdio' },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = 'examples' } },
  on_exit = function(code) result.server_exit = code end,
})
if not client_id then return finish(false, 'could not start the server') end
vim.lsp.buf_attach_client(bufnr, client_id)

-- 1. Diagnostics on open.
if not vim.wait(timeout, function() return #published > 0 end, 20) then return finish(false, 'no diagnostics within the timeout') end
table.insert(result.steps, 'diagnostics')
local first = published[#published]
result.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity, source = d.source, message = d.message, code = lsp.code or d.code, href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL })
end

-- 2. Hover.
local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = hover_line, character = hover_col } }, timeout)
local hover_result = hover and hover[client_id] and hover[client_id].result
result.hover = hover_result and hover_result.contents and (hover_result.contents.value or hover_result.contents) or vim.NIL
table.insert(result.steps, 'hover')

-- 3. A quick fix, applied to the buffer through Neovim's own workspace-edit code.
local chosen
for _, diagnostic in ipairs(first.diagnostics) do
  local actions = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = diagnostic.range,
    context = { diagnostics = { diagnostic }, only = { 'quickfix' } },
  }, timeout)
  for _, action in ipairs((actions and actions[client_id] and actions[client_id].result) or {}) do
    if action.edit and not action.title:match('^Disable') and not action.title:match('^Fix all') then
      chosen = { action = action, diagnostic = diagnostic }
      break
    end
  end
  if chosen then break end
end
if not chosen then return finish(false, 'no quick fix offered for any diagnostic') end
result.action = { title = chosen.action.title, code = chosen.diagnostic.code, line = chosen.diagnostic.range.start.line }
local before = #published
vim.lsp.util.apply_workspace_edit(chosen.action.edit, 'utf-16')
result.changed_line = vim.api.nvim_buf_get_lines(bufnr, chosen.diagnostic.range.start.line, chosen.diagnostic.range.start.line + 1, false)[1]
table.insert(result.steps, 'code action')

-- 4. The server re-checks the edited text. A publish of the version before the edit may still be on
-- its way (the workspace scan finishing re-checks open documents): wait for the edited version's.
local edited = vim.lsp.util.buf_versions[bufnr]
local function fresh()
  for i = before + 1, #published do
    local v = published[i].version
    if v == nil or edited == nil or v >= edited then return true end
  end
  return false
end
if not vim.wait(timeout, fresh, 20) then return finish(false, 'no diagnostics after the quick fix') end
result.after = {}
for _, d in ipairs(published[#published].diagnostics) do
  table.insert(result.after, { line = d.range.start.line, code = d.code })
end
table.insert(result.steps, 'diagnostics after fix')

vim.lsp.stop_client(client_id)
vim.wait(2000, function() return result.server_exit ~= nil end, 20)
finish(true)
