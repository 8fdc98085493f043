package mcpserver

// Tools waiting for their packages (inbox listing/reading, agents,
// resources).
func (s *server) addMessageTools()  {}
func (s *server) addAgents()        {}
func (s *server) addResourceTools() {}
func (s *server) addReply()         {}
