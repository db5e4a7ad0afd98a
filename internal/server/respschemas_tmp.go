package server

func addResponseSchemas(c components) {}
