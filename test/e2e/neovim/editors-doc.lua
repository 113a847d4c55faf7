-- Runs after the init.lua that docs/editors.md shows (Neovim 0.7 form): the manifest given on the
-- command line is open. Checks that the documented config attached anf-lint by itself (no client
-- started here), that the server's diagnostics arrive, that a manifest key hovers, and that the
-- other files (ANF_FILES, colon-separated) get the documented file types and the server. Writes
-- JSON to ANF_RESULT; exits with qall! or cquit 1.
local result_file = assert(os.getenv('ANF_RESULT'), 'ANF_RESULT is not set')
local key_line = tonumber(os.getenv('ANF_KEY_LINE') or '0')
local key_col = tonumber(os.getenv('ANF_KEY_COL') or '0')
local timeout = tonumber(os.getenv('ANF_TIMEOUT_MS') or '20000')
local files = vim.split(os.getenv('ANF_FILES') or '', ':', { plain = true, trimempty = true })

local result = { files = {} }
local function finish(ok, why)
  result.ok = ok
  result.error = why
  local file = assert(io.open(result_file, 'w'))
  file:write(vim.fn.json_encode(result))
  file:close()
  if ok then vim.cmd('qall!') else vim.cmd('cquit 1') end
end

local published = {}
local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
  if params then published[params.uri] = (published[params.uri] or 0) + 1 end
  return default_handler(err, params, ctx, config)
end

local function anf_client(bufnr)
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == 'anf-lint' then return client end
  end
  return nil
end

local ok, err = pcall(function()
  local bufnr = vim.api.nvim_get_current_buf()
  result.manifest_filetype = vim.bo[bufnr].filetype
  -- The client attaches once the server has answered `initialize`.
  vim.wait(timeout, function() return anf_client(bufnr) ~= nil end, 20)
  local client = anf_client(bufnr)
  if not client then return finish(false, 'the documented config did not attach anf-lint to the manifest (filetype ' .. vim.bo[bufnr].filetype .. ')') end
  result.root = client.config.root_dir
  if not vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) > 0 end, 20) then return finish(false, 'no diagnostics on the manifest') end
  result.codes = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(result.codes, lsp.code or d.code)
  end
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = key_line, character = key_col } }, timeout)
  local answer = hover and hover[client.id] and hover[client.id].result
  result.key_hover = answer and answer.contents and (answer.contents.value or answer.contents) or vim.NIL

  for _, path in ipairs(files) do
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    local uri = vim.uri_from_bufnr(buf)
    local attached = vim.wait(timeout, function() return anf_client(buf) ~= nil end, 20)
    local checked = attached and vim.wait(timeout, function() return (published[uri] or 0) > 0 end, 20)
    -- `K` hovers in every attached buffer: Neovim maps it from 0.10, the documented config before.
    local hover_key = vim.fn.maparg('K', 'n') ~= '' or vim.fn.has('nvim-0.10') == 1
    table.insert(result.files, { path = path, filetype = vim.bo[buf].filetype, attached = attached, checked = checked, diagnostics = #vim.diagnostic.get(buf), hover_key = hover_key })
  end
  finish(true)
end)
if not ok then finish(false, tostring(err)) end
