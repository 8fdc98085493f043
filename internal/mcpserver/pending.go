package mcpserver

// Tools waiting for their packages (agents, resources).
func (s *server) addAgents()        {}
func (s *server) addResourceTools() {}
