module github.com/verity-fc/verity

go 1.26
