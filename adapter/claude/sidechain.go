package claude

// sidechainRoot attributes a 1.0.x sidechain line (isSidechain:true, no
// agentId, in the main file) to its sub-agent. Each sub-agent's lines form
// a chain by parentUuid from a root whose parent is null or a main-chain
// line; the root's uuid names the sub-agent's list. Only sidechain uuids
// are kept, so a parent missing from the map is a main-chain line.
func (d *Decoder) sidechainRoot(l line) string {
	uuid := string(l.v.GetStringBytes("uuid"))
	parent := string(l.v.GetStringBytes("parentUuid"))
	root, ok := d.st.Side[parent]
	if parent == "" || !ok {
		root = uuid
	}
	if uuid == "" {
		return root
	}
	if _, seen := d.st.Side[uuid]; !seen && len(d.st.Side) < maxSidechainUUIDs {
		if d.st.Side == nil {
			d.st.Side = make(map[string]string)
		}
		d.st.Side[uuid] = root
	}
	return root
}
