graph [ node [ id 10 ] node [ id 20 ] node [ id 30 ]
 edge [ source 10 target 20 ] edge [ source 20 target 10 ]
 edge [ source 30 target 30 ] edge [ source 30 target 20 ] ]
