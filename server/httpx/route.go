package httpx

import "net/http"

// Route is one route a part of the server serves; the composition root
// mounts every part's routes on one mux.
type Route struct {
	// Pattern is the method and path, as http.ServeMux takes them.
	Pattern string
	Handler http.HandlerFunc
	// Data marks a route that serves a table's, a hand's or an event's
	// data (or lists them): its handler asks the access policy
	// (access.Ask) before it writes any, and the server's route walk
	// checks that it does.
	Data bool
}

// Get is a GET route that serves no table, hand or event data.
func Get(path string, h http.HandlerFunc) Route { return Route{Pattern: "GET " + path, Handler: h} }

// Post is a POST route that serves no table, hand or event data.
func Post(path string, h http.HandlerFunc) Route { return Route{Pattern: "POST " + path, Handler: h} }

// GetData is Get for a route that serves table, hand or event data.
func GetData(path string, h http.HandlerFunc) Route {
	return Route{Pattern: "GET " + path, Handler: h, Data: true}
}

// PostData is Post for a route that serves table, hand or event data.
func PostData(path string, h http.HandlerFunc) Route {
	return Route{Pattern: "POST " + path, Handler: h, Data: true}
}
