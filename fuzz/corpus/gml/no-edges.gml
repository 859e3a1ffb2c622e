graph [ node [ id 7 ] node [ id 3 ] ]
