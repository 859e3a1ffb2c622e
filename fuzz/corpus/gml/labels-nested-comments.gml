# a comment
Creator "hopmark"
Version 1.0
graph [
  directed 0
  label "net"
  node [ id 0 label "A [x]" graphics [ x -1.5 y 2e3 ] ]
  node [ id 4294967295 label "B" Country "" ]
  edge [ source 0 target 4294967295 LinkLabel "10G" ]
]
