// Package movielens reads the official MovieLens-1M files (ratings.dat,
// movies.dat, users.dat; ISO-8859-1, "::"-separated) from a directory or
// from the official ml-1m.zip, summarises them, and turns the long-history
// users into PraMem-style rating-prediction instances.
package movielens

import "errors"

// ErrNotFound is wrapped by Load when no dataset is found at the path.
var ErrNotFound = errors.New("movielens dataset not found")

// FetchHint tells a user how to obtain the dataset. It names no flag: each
// verb adds how it takes the location (bench data: --path, bench run:
// --set dataset.path=).
const FetchHint = "download it with `bench data fetch movielens`, or give the location of an extracted ml-1m directory or ml-1m.zip"

// Official file names.
const (
	RatingsFile = "ratings.dat"
	MoviesFile  = "movies.dat"
	UsersFile   = "users.dat"
)

// Rating is one line of ratings.dat, kept compact: the full dataset holds a
// million of them.
type Rating struct {
	User  int32
	Movie int32
	Value int8
	Time  int64 // Unix seconds
}

// Movie is one line of movies.dat.
type Movie struct {
	ID int32
	// Title is the full title as published, e.g. "Toy Story (1995)".
	Title string
	// Name is the title without the trailing "(YYYY)".
	Name string
	// Year is the release year from the title, 0 when absent.
	Year   int
	Genres []string
}

// User is one line of users.dat.
type User struct {
	ID         int32
	Gender     string // "M" or "F"
	Age        int    // age-band code: 1, 18, 25, 35, 45, 50 or 56
	Occupation int    // 0..20, see OccupationName
	Zip        string
}

// Dataset is a loaded MovieLens-1M copy.
type Dataset struct {
	Ratings []Rating
	Movies  map[int32]Movie
	Users   map[int32]User
}
