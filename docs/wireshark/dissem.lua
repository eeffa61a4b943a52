-- Wireshark dissector for the dissem wire protocol, version 3 (docs/protocol.md).
--
-- Install: copy this file into Wireshark's personal Lua plugins folder
-- (Help > About Wireshark > Folders, "Personal Lua Plugins"; on Linux
-- ~/.local/lib/wireshark/plugins/), or run `tshark -X lua_script:dissem.lua`.
-- It registers UDP port 42424 (dissemd's default; change it under
-- Preferences > Protocols > DISSEM) and "Decode As" for any other port.
--
-- Every datagram kind is shown field by field: hand-framed data frames (1)
-- and bundles (7), and the protobuf messages of proto/wire.proto (2 to 6),
-- with the network key's 32-byte trailer when the preference says so. A
-- datagram that does not parse is marked malformed (expert info and the
-- field dissem.malformed), as dissemd counts and drops it.

local dissem = Proto("dissem", "dissem dissemination protocol")

dissem.prefs.port = Pref.uint("UDP port", 42424, "dissemd's net.port")
dissem.prefs.trailer = Pref.bool("Network key trailer", false,
  "Datagrams end with the 32-byte authentication trailer (a network key is configured)")

local KINDS = { [1] = "Data", [2] = "MissingFragmentRequest", [3] = "Beacon", [4] = "Summary",
                [5] = "CodedSymbol", [6] = "WindowSymbol", [7] = "Bundle" }

local f = {
  version = ProtoField.uint8("dissem.version", "Version", base.DEC, nil, 0xF0),
  kind = ProtoField.uint8("dissem.kind", "Kind", base.DEC, KINDS, 0x0F),
  kind_name = ProtoField.string("dissem.kind_name", "Kind name"),
  malformed = ProtoField.string("dissem.malformed", "Malformed"),
  flags = ProtoField.uint8("dissem.data.flags", "Flags", base.HEX),
  flags2 = ProtoField.uint8("dissem.data.flags2", "Flags (second byte)", base.HEX),
  publisher = ProtoField.uint32("dissem.data.publisher", "Publisher", base.HEX),
  group = ProtoField.string("dissem.data.group", "Group"),
  group_ref = ProtoField.uint32("dissem.data.group_ref", "Group reference"),
  seq = ProtoField.uint64("dissem.data.seq", "Sequence number"),
  seq_delta = ProtoField.int64("dissem.data.seq_delta", "Sequence number, from the previous frame"),
  context = ProtoField.bool("dissem.data.context", "Context frame (publisher and group of the previous frame)"),
  offset = ProtoField.uint32("dissem.data.offset", "Offset"),
  total_length = ProtoField.uint32("dissem.data.total_length", "Total length"),
  digest = ProtoField.uint64("dissem.data.digest", "Digest", base.HEX),
  repair = ProtoField.bool("dissem.data.repair", "Repair"),
  priority = ProtoField.uint32("dissem.data.priority", "Priority"),
  expiry = ProtoField.uint32("dissem.data.expiry_ms", "Expiry (low 32 bits of Unix ms)"),
  tag = ProtoField.string("dissem.data.tag", "Tag"),
  history = ProtoField.uint32("dissem.data.history_window", "History window"),
  block = ProtoField.uint32("dissem.data.block_symbols", "Block symbols"),
  signature = ProtoField.bytes("dissem.data.signature", "Signature"),
  key_epoch = ProtoField.uint32("dissem.data.key_epoch", "Key epoch"),
  chain = ProtoField.bytes("dissem.data.chain", "Chain link"),
  supersession = ProtoField.uint8("dissem.data.supersession", "Supersession (1 replace, 2 cancel, 4 ranges)", base.HEX),
  supersedes = ProtoField.uint64("dissem.data.supersedes", "Supersedes bound"),
  hops = ProtoField.uint32("dissem.data.hops", "Hops"),
  forwarder = ProtoField.uint32("dissem.data.forwarder", "Forwarder", base.HEX),
  payload = ProtoField.bytes("dissem.data.payload", "Payload"),
  payload_length = ProtoField.uint32("dissem.data.payload_length", "Payload length"),
  items = ProtoField.uint32("dissem.bundle.items", "Items"),
  item = ProtoField.bytes("dissem.bundle.item", "Item"),
  item_length = ProtoField.uint32("dissem.bundle.item_length", "Item length"),
  trailer_sender = ProtoField.uint32("dissem.trailer.sender", "Sealed by", base.HEX),
  trailer_counter = ProtoField.uint64("dissem.trailer.counter", "Transmission counter"),
  trailer_epoch = ProtoField.uint32("dissem.trailer.epoch", "Network key epoch"),
  trailer_tag = ProtoField.bytes("dissem.trailer.tag", "Authentication tag"),
}

-- proto/wire.proto, field by field: {number = {name, type[, message]}}.
-- Types: u (varint), b (bool), f32, f64, s (string), y (bytes), pu (packed
-- varints), m (message). tests/wireshark checks this against wire.proto.
local SCHEMA = {
  MissingFragmentRequest = { [1] = {"requester", "f32"}, [2] = {"wants", "m", "PublisherWants"} },
  PublisherWants = { [1] = {"group", "s"}, [2] = {"publisher", "f32"}, [3] = {"messages", "m", "MessageWants"},
                     [4] = {"windows", "m", "WindowNeed"} },
  WindowNeed = { [1] = {"first_seq", "u"}, [2] = {"count", "u"}, [3] = {"deficit", "u"}, [4] = {"held", "y"} },
  MessageWants = { [1] = {"seq", "u"}, [2] = {"ranges", "pu"}, [3] = {"blocks", "m", "BlockNeed"} },
  BlockNeed = { [1] = {"block", "u"}, [2] = {"deficit", "u"}, [3] = {"symbol_size", "u"}, [4] = {"held", "y"},
                [5] = {"block_symbols", "u"} },
  Beacon = { [1] = {"node", "f32"}, [2] = {"sent_us", "u"}, [3] = {"newest", "m", "Newest"},
             [4] = {"echoes", "m", "Echo"}, [5] = {"seq", "u"}, [6] = {"interests", "m", "Interest"},
             [7] = {"reception", "m", "Reception"}, [8] = {"separate_radios", "b"},
             [9] = {"neighbours", "u"} },
  Reception = { [1] = {"publisher", "f32"}, [2] = {"loss_permille", "u"} },
  Interest = { [1] = {"group", "s"}, [2] = {"distance", "u"}, [3] = {"via", "f32"}, [4] = {"subscriber", "f32"} },
  Newest = { [1] = {"group", "s"}, [2] = {"publisher", "f32"}, [3] = {"seq", "u"}, [4] = {"oldest", "u"},
             [5] = {"group_ref", "u"}, [6] = {"ended_below", "u"} },
  Echo = { [1] = {"peer", "f32"}, [2] = {"peer_sent_us", "u"}, [3] = {"held_us", "u"}, [4] = {"loss_permille", "u"},
           [5] = {"received_bytes_per_s", "u"}, [6] = {"neighbours", "u"} },
  Summary = { [1] = {"node", "f32"}, [2] = {"reply", "b"}, [3] = {"wants", "s"}, [4] = {"streams", "m", "StreamHeld"},
              [5] = {"truncated", "b"} },
  StreamHeld = { [1] = {"group", "s"}, [2] = {"publisher", "f32"}, [3] = {"held", "pu"} },
  CodedSymbol = { [1] = {"group", "s"}, [2] = {"publisher", "f32"}, [3] = {"seq", "u"}, [4] = {"block", "u"},
                  [5] = {"total_length", "u"}, [6] = {"priority", "u"}, [7] = {"expiry_ms", "f32"},
                  [8] = {"history_window", "u"}, [9] = {"repair", "b"}, [10] = {"hops", "u"}, [11] = {"tag", "s"},
                  [12] = {"forwarder", "f32"}, [13] = {"block_symbols", "u"}, [14] = {"seed", "f32"},
                  [15] = {"payload", "y"}, [16] = {"coefficients", "y"}, [17] = {"digest", "f64"},
                  [18] = {"signature", "y"}, [19] = {"key_epoch", "u"}, [20] = {"chain", "y"}, [21] = {"replace", "b"},
                  [22] = {"supersedes", "pu"}, [23] = {"cancel", "b"} },
  WindowSymbol = { [1] = {"group", "s"}, [2] = {"publisher", "f32"}, [3] = {"first_seq", "u"}, [4] = {"count", "u"},
                   [9] = {"repair", "b"}, [10] = {"hops", "u"}, [11] = {"excluded", "y"}, [14] = {"seed", "f32"},
                   [15] = {"payload", "y"} },
}
local KIND_MESSAGE = { [2] = "MissingFragmentRequest", [3] = "Beacon", [4] = "Summary", [5] = "CodedSymbol",
                       [6] = "WindowSymbol" }

-- A ProtoField per protobuf field, "dissem.<message>.<field>".
local pb_fields = {}
for msg, fields in pairs(SCHEMA) do
  pb_fields[msg] = {}
  for num, d in pairs(fields) do
    local abbr = "dissem." .. msg:lower() .. "." .. d[1]
    local t = d[2]
    local pf
    if t == "s" then pf = ProtoField.string(abbr, d[1])
    elseif t == "y" then pf = ProtoField.bytes(abbr, d[1])
    elseif t == "b" then pf = ProtoField.bool(abbr, d[1])
    elseif t == "m" then pf = ProtoField.bytes(abbr, d[1])
    elseif t == "f32" then pf = ProtoField.uint32(abbr, d[1], base.HEX)
    else pf = ProtoField.uint64(abbr, d[1]) end
    pb_fields[msg][num] = pf
    table.insert(f, pf)
  end
end

local list = {}
for _, v in pairs(f) do table.insert(list, v) end
dissem.fields = list

local ef_malformed = ProtoExpert.new("dissem.malformed.expert", "Malformed dissem datagram",
  expert.group.MALFORMED, expert.severity.ERROR)
dissem.experts = { ef_malformed }

-- A failed parse: raised with error(), caught once per datagram.
local Malformed = {}
local function fail(why) error(setmetatable({ why = why }, Malformed), 0) end

-- Reader over a TvbRange [pos, limit).
local function reader(tvb, pos, limit)
  local r = { tvb = tvb, pos = pos, limit = limit }
  function r:left() return self.limit - self.pos end
  function r:take(n, what)
    if n < 0 or n > self:left() then fail((what or "field") .. " runs past the end") end
    local range = self.tvb(self.pos, n)
    self.pos = self.pos + n
    return range
  end
  function r:varint(what)
    local start, value, shift = self.pos, UInt64(0), 0
    while true do
      if self.pos >= self.limit then fail((what or "varint") .. " runs past the end") end
      local b = self.tvb(self.pos, 1):uint()
      self.pos = self.pos + 1
      if shift >= 64 then fail((what or "varint") .. " is longer than 10 bytes") end
      value = value + UInt64(bit.band(b, 0x7f)):lshift(shift)
      shift = shift + 7
      if bit.band(b, 0x80) == 0 then break end
    end
    return value, self.tvb(start, self.pos - start)
  end
  return r
end

local function u32(v, what)
  if v > UInt64(0xffffffff) then fail(what .. " is out of range") end
  return v:tonumber()
end

-- Data frame (kind 1), hand-framed: docs/protocol.md, Data frames. `ctx`
-- carries the previous data frame's publisher and group inside a bundle.
local function dissect_data(tvb, pos, limit, tree, ctx)
  local r = reader(tvb, pos, limit)
  local flags_range = r:take(1, "flags")
  local flags = flags_range:uint()
  tree:add(f.flags, flags_range)
  local flags2 = 0
  if bit.band(flags, 0x80) ~= 0 then
    local range = r:take(1, "second flags byte")
    flags2 = range:uint()
    if flags2 == 0 then fail("second flags byte is 0") end
    tree:add(f.flags2, range)
  end
  local publisher, group, seq
  if bit.band(flags, 0x10) ~= 0 then
    if ctx == nil or not ctx.valid then fail("context frame without a previous data frame") end
    if bit.band(flags, 0x02) ~= 0 then fail("context frame names its group") end
    tree:add(f.context, true)
    local zz, range = r:varint("sequence delta")
    local delta = zz:rshift(1)
    local d = (zz % 2 == UInt64(1)) and -(Int64(delta:tonumber()) + 1) or Int64(delta:tonumber())
    tree:add(f.seq_delta, range, d)
    publisher, group = ctx.publisher, ctx.group
    seq = ctx.seq + d
    tree:add(f.publisher, publisher):set_generated()
    if group then tree:add(f.group, group):set_generated() end
    tree:add(f.seq, seq):set_generated()
  else
    local prange = r:take(4, "publisher")
    publisher = prange:le_uint()
    tree:add_le(f.publisher, prange)
    if bit.band(flags, 0x02) ~= 0 then
      local n = r:varint("group length")
      local grange = r:take(u32(n, "group length"), "group")
      group = grange:string()
      tree:add(f.group, grange)
    end
    local ref, rrange = r:varint("group reference")
    tree:add(f.group_ref, rrange, u32(ref, "group reference"))
    if group == nil and ref == UInt64(0) then fail("group reference 0 without a name") end
    local s, srange = r:varint("sequence number")
    seq = s
    tree:add(f.seq, srange, s)
    if group == nil and ctx and ctx.refs then
      group = ctx.refs[publisher .. "/" .. tostring(ref)]
      if group then tree:add(f.group, group):set_generated() end
    end
    if group ~= nil and ctx and ctx.refs then ctx.refs[publisher .. "/" .. tostring(ref)] = group end
  end
  if bit.band(flags, 0x01) ~= 0 then
    local o, orange = r:varint("offset")
    tree:add(f.offset, orange, u32(o, "offset"))
    local t, trange = r:varint("total length")
    tree:add(f.total_length, trange, u32(t, "total length"))
  end
  if bit.band(flags, 0x04) ~= 0 then tree:add_le(f.digest, r:take(8, "digest")) end
  tree:add(f.repair, bit.band(flags, 0x08) ~= 0)
  if bit.band(flags, 0x20) ~= 0 then
    local v, range = r:varint("priority")
    tree:add(f.priority, range, u32(v, "priority"))
  end
  if bit.band(flags, 0x40) ~= 0 then tree:add_le(f.expiry, r:take(4, "expiry")) end
  if bit.band(flags2, 0x01) ~= 0 then
    local n = r:varint("tag length")
    tree:add(f.tag, r:take(u32(n, "tag length"), "tag"))
  end
  if bit.band(flags2, 0x02) ~= 0 then
    local v, range = r:varint("history window")
    tree:add(f.history, range, u32(v, "history window"))
  end
  if bit.band(flags2, 0x04) ~= 0 then
    local v, range = r:varint("block symbols")
    tree:add(f.block, range, u32(v, "block symbols"))
  end
  if bit.band(flags2, 0x08) ~= 0 then
    local n = r:varint("signature length")
    tree:add(f.signature, r:take(u32(n, "signature length"), "signature"))
    local v, range = r:varint("key epoch")
    tree:add(f.key_epoch, range, u32(v, "key epoch"))
  end
  if bit.band(flags2, 0x10) ~= 0 then
    local n = r:varint("chain length")
    tree:add(f.chain, r:take(u32(n, "chain length"), "chain"))
  end
  if bit.band(flags2, 0x20) ~= 0 then
    local range = r:take(1, "supersession")
    tree:add(f.supersession, range)
    if bit.band(range:uint(), 0x04) ~= 0 then
      local count = r:varint("supersedes count")
      if count > UInt64(128) then fail("more than 64 superseded ranges") end
      for _ = 1, count:tonumber() do
        local v, vr = r:varint("supersedes bound")
        tree:add(f.supersedes, vr, v)
      end
    end
  end
  if bit.band(flags2, 0x40) ~= 0 then
    local v, range = r:varint("hops")
    tree:add(f.hops, range, u32(v, "hops"))
  end
  if bit.band(flags2, 0x80) ~= 0 then tree:add_le(f.forwarder, r:take(4, "forwarder")) end
  local n = r:left()
  if n > 0 then tree:add(f.payload, tvb(r.pos, n)) end
  tree:add(f.payload_length, n):set_generated()
  if ctx then
    ctx.valid, ctx.publisher, ctx.group, ctx.seq = true, publisher, group, seq
  end
  return string.format("Data %08x/%s/%s%s", publisher, group or "ref", tostring(seq),
                       bit.band(flags, 0x08) ~= 0 and " repair" or "")
end

local WIRE_TYPE = { u = 0, b = 0, f32 = 5, f64 = 1, s = 2, y = 2, m = 2, pu = 2 }

-- A protobuf message of `msg` over [pos, limit): its fields into `tree`;
-- unknown ones are shown as such and skipped.
local function dissect_pb(tvb, pos, limit, tree, msg, depth, refs)
  if depth > 8 then fail("messages nested too deep") end
  local schema, fields = SCHEMA[msg], pb_fields[msg]
  local r = reader(tvb, pos, limit)
  local first = {}
  while r:left() > 0 do
    local key, krange = r:varint("field key")
    local num, wt = key:rshift(3):tonumber(), bit.band(key:lower(), 7)
    if num == 0 then fail("field number 0") end
    local d = schema[num]
    -- A known field on another wire type is an unknown one, as protobuf
    -- (and so dissemd) parses it; a packed field may also come unpacked.
    if d and WIRE_TYPE[d[2]] ~= wt and not (d[2] == "pu" and wt == 0) then d = nil end
    local start = krange:offset()
    if wt == 0 then
      local v = r:varint("varint field")
      if d then
        if d[2] == "b" then tree:add(fields[num], tvb(start, r.pos - start), v ~= UInt64(0))
        else tree:add(fields[num], tvb(start, r.pos - start), v) end
        if first[d[1]] == nil then first[d[1]] = v end
      end
    elseif wt == 1 then
      local range = r:take(8, "fixed64 field")
      if d then tree:add_le(fields[num], range) ; if first[d[1]] == nil then first[d[1]] = range:le_uint64() end end
    elseif wt == 5 then
      local range = r:take(4, "fixed32 field")
      if d then tree:add_le(fields[num], range) ; if first[d[1]] == nil then first[d[1]] = range:le_uint() end end
    elseif wt == 2 then
      local n = r:varint("length")
      local range = r:take(u32(n, "length"), "length-delimited field")
      if d then
        if d[2] == "m" then
          local sub = tree:add(fields[num], range)
          sub:set_text(d[1])
          dissect_pb(tvb, range:offset(), range:offset() + range:len(), sub, d[3], depth + 1, refs)
        elseif d[2] == "pu" then
          local pr = reader(tvb, range:offset(), range:offset() + range:len())
          while pr:left() > 0 do
            local v, vr = pr:varint("packed value")
            tree:add(fields[num], vr, v)
          end
        elseif d[2] == "s" then
          tree:add(fields[num], range)
          if first[d[1]] == nil then first[d[1]] = range:string() end
        else
          tree:add(fields[num], range)
        end
      end
    else
      fail("wire type " .. wt .. " is not used by dissem")
    end
    if d == nil then tree:add(tvb(start, r.pos - start), "Unknown field " .. num .. " (wire type " .. wt .. ")") end
  end
  -- Beacons advertise each stream's group reference beside its name.
  if msg == "Newest" and refs and first.group and first.publisher and first.group_ref then
    refs[first.publisher .. "/" .. tostring(first.group_ref)] = first.group
  end
  return first
end

local dissect_frame

-- Bundle (kind 7): 2 to 64 items, each a varint length and a frame.
local function dissect_bundle(tvb, pos, limit, tree, pinfo, refs)
  local r = reader(tvb, pos, limit)
  local ctx = { valid = false, refs = refs }
  local count, infos = 0, {}
  while r:left() > 0 do
    local n = r:varint("item length")
    local range = r:take(u32(n, "item length"), "item")
    count = count + 1
    if count > 64 then fail("more than 64 items") end
    local sub = tree:add(f.item, range)
    sub:add(f.item_length, n:tonumber())
    if range:len() < 1 then fail("empty item") end
    local info = dissect_frame(tvb, range:offset(), range:offset() + range:len(), sub, pinfo, ctx, true)
    sub:set_text("Item " .. count .. ": " .. info)
    table.insert(infos, info)
  end
  if count < 2 then fail("a bundle of fewer than 2 items") end
  tree:add(f.items, count):set_generated()
  return "Bundle of " .. count .. ": " .. table.concat(infos, ", ")
end

-- One frame: the prefix byte and what follows, over [pos, limit).
dissect_frame = function(tvb, pos, limit, tree, pinfo, ctx, in_bundle)
  local prefix = tvb(pos, 1)
  local version, kind = bit.rshift(prefix:uint(), 4), bit.band(prefix:uint(), 0x0f)
  tree:add(f.version, prefix)
  tree:add(f.kind, prefix)
  if version ~= 3 then fail("wire version " .. version .. ", not 3") end
  if KINDS[kind] == nil then fail("unknown kind " .. kind) end
  tree:add(f.kind_name, KINDS[kind]):set_generated()
  if kind == 1 then return dissect_data(tvb, pos + 1, limit, tree, ctx) end
  if kind == 7 then
    if in_bundle then fail("a bundle inside a bundle") end
    return dissect_bundle(tvb, pos + 1, limit, tree, pinfo, ctx and ctx.refs)
  end
  -- A protobuf message breaks a bundle's data context.
  if ctx then ctx.valid = false end
  local msg = KIND_MESSAGE[kind]
  local first = dissect_pb(tvb, pos + 1, limit, tree, msg, 0, ctx and ctx.refs)
  local who = first.node or first.requester or first.publisher
  return msg .. (who and string.format(" %08x", tonumber(tostring(who))) or "")
end

-- Group references learnt from named frames and beacons, per capture (frame order).
local refs_by_capture = {}

function dissem.init() refs_by_capture = {} end

function dissem.dissector(tvb, pinfo, tree)
  local len = tvb:len()
  if len == 0 then return 0 end
  pinfo.cols.protocol = "DISSEM"
  local root = tree:add(dissem, tvb())
  local limit = len
  local ok, result = pcall(function()
    if dissem.prefs.trailer then
      if len < 33 then fail("shorter than the network key trailer") end
      limit = len - 32
      local t = root:add(dissem, tvb(limit, 32), "Network key trailer")
      t:add_le(f.trailer_sender, tvb(limit, 4))
      t:add_le(f.trailer_counter, tvb(limit + 4, 8))
      t:add_le(f.trailer_epoch, tvb(limit + 12, 4))
      t:add(f.trailer_tag, tvb(limit + 16, 16))
    end
    return dissect_frame(tvb, 0, limit, root, pinfo, { valid = false, refs = refs_by_capture }, false)
  end)
  if ok then
    pinfo.cols.info = result
  else
    local why = (type(result) == "table" and result.why) or tostring(result)
    root:add(f.malformed, why)
    root:add_proto_expert_info(ef_malformed, "Malformed dissem datagram: " .. why)
    pinfo.cols.info = "Malformed: " .. why
  end
  return len
end

DissectorTable.get("udp.port"):add(dissem.prefs.port, dissem)

function dissem.prefs_changed()
  DissectorTable.get("udp.port"):remove_all(dissem)
  DissectorTable.get("udp.port"):add(dissem.prefs.port, dissem)
end
