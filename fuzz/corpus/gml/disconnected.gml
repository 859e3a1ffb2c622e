graph [ node [ id 1 ] node [ id 2 ] node [ id 3 ] node [ id 4 ]
 edge [ source 1 target 2 ] edge [ source 3 target 4 ] ]
